import type { AssertionOutcome } from "../schema";
import { compareNumbers, expectation, outcome } from "./compare";
import type { Evaluator, ResponseView } from "./context";
import type { StatusCodeAssertion } from "./schema";

export const statusCode: Evaluator<StatusCodeAssertion> = (a, res) =>
  outcome(
    "statusCode",
    "statusCode",
    compareNumbers(a.compare, res.statusCode, a.target),
    expectation(a.compare, String(a.target)),
    String(res.statusCode),
  );

/** Applied when a check has no statusCode assertion of its own. */
export function expect2xx(res: ResponseView): AssertionOutcome {
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  return outcome("statusCode", "statusCode", ok, "2xx", String(res.statusCode));
}
