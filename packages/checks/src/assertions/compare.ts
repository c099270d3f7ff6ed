import type { AssertionOutcome } from "../schema";
import type { Comparator } from "./schema";

export function compareNumbers(op: Comparator, actual: number, target: number): boolean {
  switch (op) {
    case "eq":
      return actual === target;
    case "not_eq":
      return actual !== target;
    case "gt":
      return actual > target;
    case "gte":
      return actual >= target;
    case "lt":
      return actual < target;
    case "lte":
      return actual <= target;
    default:
      return false; // the schemas only allow ordering comparators for numbers
  }
}

/** `actual` undefined means "absent" (a missing header): it is empty and contains nothing. */
export function compareText(
  op: Comparator,
  actual: string | undefined,
  target: string,
  equal = (a: string, b: string) => a === b,
): boolean {
  switch (op) {
    case "eq":
      return actual !== undefined && equal(actual, target);
    case "not_eq":
      return actual === undefined || !equal(actual, target);
    case "contains":
      return actual?.includes(target) === true;
    case "not_contains":
      return actual === undefined || !actual.includes(target);
    case "empty":
      return actual === undefined || actual.trim() === "";
    case "not_empty":
      return actual !== undefined && actual.trim() !== "";
    default:
      return false; // the schemas only allow these comparators for text
  }
}

/** Structural equality of parsed JSON: object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  const bo = b as Record<string, unknown>;
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual((a as Record<string, unknown>)[k], bo[k]));
}

const MAX_SHOWN = 120;

/** A value as it appears in a message: JSON-quoted, and shortened when long. */
export function show(value: unknown): string {
  const text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}… (${text.length} chars)`;
}

export function expectation(op: Comparator, target: string, unit = ""): string {
  if (op === "empty" || op === "not_empty") return op;
  return `${op} ${target}${unit}`;
}

/** `label: expected <op> <target>, got <actual>` on failure; the same facts on success. */
export function outcome(kind: string, label: string, ok: boolean, expected: string, got: string): AssertionOutcome {
  return { kind, ok, message: ok ? `${label}: ${expected} (got ${got})` : `${label}: expected ${expected}, got ${got}` };
}
