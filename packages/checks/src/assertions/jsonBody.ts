import { compareNumbers, expectation, jsonEqual, outcome, show } from "./compare";
import type { Evaluator } from "./context";
import { JsonPathError, parseJsonPath, queryJsonPath } from "./jsonpath";
import type { Comparator, JsonBodyAssertion } from "./schema";

type Target = JsonBodyAssertion["target"];

/** YAML writes `target: 200` and `target: "200"` interchangeably, so scalars compare by their text too. */
function looselyEqual(actual: unknown, target: Target): boolean {
  if (actual === target) return true;
  if (actual === undefined) return false;
  if (typeof actual === "object" && actual !== null) {
    if (typeof target !== "string") return false;
    try {
      return jsonEqual(actual, JSON.parse(target));
    } catch {
      return false;
    }
  }
  return String(actual) === String(target);
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v).length === 0;
  return false;
}

function contains(actual: unknown, target: Target): boolean {
  if (typeof actual === "string") return actual.includes(String(target));
  if (Array.isArray(actual)) return actual.some((x) => looselyEqual(x, target));
  return false;
}

function compareJson(op: Comparator, actual: unknown, target: Target): boolean {
  switch (op) {
    case "eq":
      return looselyEqual(actual, target);
    case "not_eq":
      return !looselyEqual(actual, target);
    case "contains":
      return contains(actual, target);
    case "not_contains":
      return !contains(actual, target);
    case "empty":
      return isEmpty(actual);
    case "not_empty":
      return !isEmpty(actual);
    default: {
      const a = toNumber(actual);
      const t = toNumber(target);
      return a !== undefined && t !== undefined && compareNumbers(op, a, t);
    }
  }
}

export const jsonBody: Evaluator<JsonBodyAssertion> = (a, res) => {
  const label = `jsonBody ${a.path}`;
  let segments: ReturnType<typeof parseJsonPath>;
  try {
    segments = parseJsonPath(a.path);
  } catch (err) {
    return {
      kind: "jsonBody",
      ok: false,
      message: `${label}: invalid JSONPath: ${err instanceof JsonPathError ? err.message : String(err)}`,
    };
  }
  let document: unknown;
  try {
    document = JSON.parse(res.body);
  } catch (err) {
    const why = res.bodyTruncated ? "body truncated at 1 MiB" : err instanceof Error ? err.message : String(err);
    return {
      kind: "jsonBody",
      ok: false,
      message: `${label}: body is not valid JSON (${why}), starts with ${show(res.body.slice(0, 60))}`,
    };
  }
  const actual = queryJsonPath(document, segments);
  const ok = compareJson(a.compare, actual, a.target);
  return outcome(
    "jsonBody",
    label,
    ok,
    expectation(a.compare, show(a.target)),
    actual === undefined ? "nothing at that path" : show(actual),
  );
};
