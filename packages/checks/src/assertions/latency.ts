import { compareNumbers, expectation, outcome } from "./compare";
import type { Evaluator } from "./context";
import type { LatencyAssertion } from "./schema";

export const latency: Evaluator<LatencyAssertion> = (a, res) =>
  outcome(
    "latency",
    "latency",
    compareNumbers(a.compare, res.latencyMs, a.target),
    expectation(a.compare, String(a.target), " ms"),
    `${Math.round(res.latencyMs)} ms`,
  );
