import { compareNumbers, expectation, outcome } from "./compare";
import type { Evaluator } from "./context";
import type { PacketLossAssertion } from "./schema";

export const packetLoss: Evaluator<PacketLossAssertion> = (a, res) => {
  const loss = res.packetLossPercent ?? 0;
  return outcome(
    "packetLoss",
    "packet loss",
    compareNumbers(a.compare, loss, a.target),
    expectation(a.compare, String(a.target), " %"),
    `${loss} %`,
  );
};
