import type { AssertionOutcome } from "../schema";
import { certificate } from "./certificate";
import type { Evaluator, ResponseView } from "./context";
import { header } from "./header";
import { jsonBody } from "./jsonBody";
import { latency } from "./latency";
import { packetLoss } from "./packetLoss";
import type { Assertion, PacketLossAssertion } from "./schema";
import { expect2xx, statusCode } from "./statusCode";
import { textBody } from "./textBody";

export type { Evaluator, ResponseView } from "./context";

/** One evaluator per assertion kind; adding a kind is one module and one line here. */
type AnyAssertion = Assertion | PacketLossAssertion;
const EVALUATORS: { [K in AnyAssertion["kind"]]: Evaluator<Extract<AnyAssertion, { kind: K }>> } = {
  statusCode,
  textBody,
  header,
  jsonBody,
  latency,
  certificate,
  packetLoss,
};

/** Each assertion's outcome as it stands, nothing implied: for the kinds that have no HTTP status. */
export function evaluateEach(assertions: readonly AnyAssertion[], view: ResponseView): AssertionOutcome[] {
  return assertions.map((a) => (EVALUATORS[a.kind] as Evaluator<AnyAssertion>)(a, view));
}

/** Every assertion's outcome, plus the implicit "2xx" when the check states no status code of its own. */
export function evaluateAssertions(assertions: readonly Assertion[], response: ResponseView): AssertionOutcome[] {
  const outcomes = assertions.map((a) => (EVALUATORS[a.kind] as Evaluator<Assertion>)(a, response));
  if (!assertions.some((a) => a.kind === "statusCode")) outcomes.unshift(expect2xx(response));
  return outcomes;
}
