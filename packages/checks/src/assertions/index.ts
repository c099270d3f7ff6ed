import type { AssertionOutcome } from "../schema";
import { certificate } from "./certificate";
import type { Evaluator, ResponseView } from "./context";
import { header } from "./header";
import { jsonBody } from "./jsonBody";
import { latency } from "./latency";
import type { Assertion } from "./schema";
import { expect2xx, statusCode } from "./statusCode";
import { textBody } from "./textBody";

export type { Evaluator, ResponseView } from "./context";

/** One evaluator per assertion kind; adding a kind is one module and one line here. */
const EVALUATORS: { [K in Assertion["kind"]]: Evaluator<Extract<Assertion, { kind: K }>> } = {
  statusCode,
  textBody,
  header,
  jsonBody,
  latency,
  certificate,
};

/** Every assertion's outcome, plus the implicit "2xx" when the check states no status code of its own. */
export function evaluateAssertions(assertions: readonly Assertion[], response: ResponseView): AssertionOutcome[] {
  const outcomes = assertions.map((a) => (EVALUATORS[a.kind] as Evaluator<Assertion>)(a, response));
  if (!assertions.some((a) => a.kind === "statusCode")) outcomes.unshift(expect2xx(response));
  return outcomes;
}
