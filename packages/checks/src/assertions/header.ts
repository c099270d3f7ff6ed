import { compareText, expectation, outcome, show } from "./compare";
import type { Evaluator } from "./context";
import type { HeaderAssertion } from "./schema";

export const header: Evaluator<HeaderAssertion> = (a, res) => {
  const name = a.key.toLowerCase();
  const raw = res.headers[name];
  const value = Array.isArray(raw) ? raw.join(", ") : raw;
  return outcome(
    "header",
    `header ${name}`,
    compareText(a.compare, value, a.target),
    expectation(a.compare, show(a.target)),
    value === undefined ? "no such header" : show(value),
  );
};
