import { z } from "zod";
import type { Segment } from "./positions";

/**
 * Rule texts for zod's built-in checks, worded like the schema's own messages ("must be ...").
 * Passed per parse, so the messages written in api-contract still win.
 */
export const ruleText: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is required" : `must be ${typeName(issue.expected)}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.join(", ")}`;
    case "too_small":
      return `must ${bound(issue.origin, "at least", "more than", issue.minimum, issue.inclusive)}`;
    case "too_big":
      return `must ${bound(issue.origin, "at most", "less than", issue.maximum, issue.inclusive)}`;
    case "invalid_format":
      return issue.format === "regex" ? "has an invalid format" : `must be a valid ${issue.format === "url" ? "URL" : issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_union":
      return unionRule(issue.errors);
    default:
      return "is not valid";
  }
};

function typeName(expected: string): string {
  const names: Record<string, string> = {
    string: "a string",
    number: "a number",
    int: "a whole number",
    boolean: "true or false",
    array: "a list",
    object: "a map",
    record: "a map",
    null: "empty",
  };
  return names[expected] ?? expected;
}

function bound(origin: string, incl: string, excl: string, limit: number | bigint, inclusive: boolean | undefined): string {
  const word = inclusive === false ? excl : incl;
  if (origin === "string") return `be ${word} ${limit} characters long`;
  if (origin === "array" || origin === "set") return `have ${word} ${limit} items`;
  return `be ${word} ${limit}`;
}

/** A union of plain types ("a string or a number") says which types it takes; anything else can't say much. */
function unionRule(errors: readonly (readonly z.core.$ZodIssue[])[]): string {
  const types = errors.map((branch) => (branch.length === 1 && branch[0]?.code === "invalid_type" ? branch[0].expected : undefined));
  if (types.length === 0 || types.some((t) => t === undefined)) return "does not match any accepted form";
  const names = [...new Set(types.map((t) => typeName(t as string)))];
  return `must be ${names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0]}`;
}

/** What the file held, for the "(got ...)" part of a message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  return String(value);
}

export const isScalar = (value: unknown): boolean => value === null || (typeof value !== "object" && typeof value !== "function");

/** `api-health.request.headers["X Y"]`: dotted where a key reads as a name, bracketed otherwise. */
export function displayPath(path: readonly Segment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (/^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += out === "" ? JSON.stringify(seg) : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

// ── Unknown keys ─────────────────────────────────────────────────────────────
// api-contract's nested objects (request, openTelemetry, assertions) strip unknown keys instead of
// rejecting them, which in a hand-written file hides typos. Walk the same schema beside the data and
// report every key its objects do not declare.

export type UnknownKey = { path: Segment[]; allowed: string[] };

export function findUnknownKeys(schema: z.core.$ZodType, value: unknown, path: Segment[] = [], out: UnknownKey[] = []): UnknownKey[] {
  if (typeof value !== "object" || value === null) return out;
  const def = schema._zod.def;
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
    case "nullable":
    case "readonly":
    case "catch":
    case "nonoptional":
      return findUnknownKeys((def as z.core.$ZodOptionalDef).innerType, value, path, out);
    case "pipe": {
      const { in: input, out: output } = def as z.core.$ZodPipeDef;
      // A preprocess (e.g. guessing `kind`) changes the value before the real schema sees it.
      if (input._zod.def.type !== "transform") return findUnknownKeys(input, value, path, out);
      const pre = z.safeParse(input, value);
      return pre.success ? findUnknownKeys(output, pre.data, path, out) : out;
    }
    case "union": {
      const { options, discriminator } = def as z.core.$ZodDiscriminatedUnionDef;
      if (!discriminator || Array.isArray(value)) return out;
      const tag = (value as Record<string, unknown>)[discriminator];
      const option = options.find((o) => o._zod.propValues?.[discriminator]?.has(tag as never));
      if (option) return findUnknownKeys(option, value, path, out);
      // No usable discriminator: a key no option declares is still unknown.
      const allowed = [
        ...new Set(options.flatMap((o) => (o._zod.def.type === "object" ? Object.keys((o._zod.def as z.core.$ZodObjectDef).shape) : []))),
      ];
      if (allowed.length === 0) return out;
      for (const key of Object.keys(value)) if (!allowed.includes(key)) out.push({ path: [...path, key], allowed });
      return out;
    }
    case "object": {
      if (Array.isArray(value)) return out;
      const shape = (def as z.core.$ZodObjectDef).shape;
      const allowed = Object.keys(shape);
      for (const [key, child] of Object.entries(value)) {
        const sub = shape[key];
        if (!Object.hasOwn(shape, key) || !sub) out.push({ path: [...path, key], allowed });
        else findUnknownKeys(sub, child, [...path, key], out);
      }
      return out;
    }
    case "array":
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) findUnknownKeys((def as z.core.$ZodArrayDef).element, item, [...path, i], out);
      }
      return out;
    default:
      return out;
  }
}

/** "(did you mean "frequency"?)" for a near miss, else the keys that are allowed. */
export function suggestKey(key: string, allowed: readonly string[]): string {
  const near = allowed
    .map((a) => ({ a, d: a.toLowerCase() === key.toLowerCase() ? 0 : editDistance(a.toLowerCase(), key.toLowerCase()) }))
    .filter(({ d }) => d <= Math.min(2, Math.floor(key.length / 3)) || d === 0)
    .sort((x, y) => x.d - y.d)[0];
  return near ? `did you mean "${near.a}"?` : `allowed: ${allowed.join(", ")}`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
