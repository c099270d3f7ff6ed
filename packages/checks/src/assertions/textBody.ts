import { compareText, expectation, jsonEqual, outcome, show } from "./compare";
import type { Evaluator } from "./context";
import type { TextBodyAssertion } from "./schema";

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Same JSON value when both parse; otherwise the exact text. */
function sameJson(a: string, b: string): boolean {
  const pa = parseJson(a);
  const pb = parseJson(b);
  return pa.ok && pb.ok ? jsonEqual(pa.value, pb.value) : a === b;
}

export const textBody: Evaluator<TextBodyAssertion> = (a, res) => {
  const ok = compareText(a.compare, res.body, a.target, res.jsonText ? sameJson : undefined);
  const got = `${show(res.body)}${res.bodyTruncated ? " (body truncated at 1 MiB)" : ""}`;
  return outcome("textBody", "textBody", ok, expectation(a.compare, show(a.target)), got);
};
