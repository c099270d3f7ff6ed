import { describe, expect, it } from "vitest";
import { evaluateAssertions, type ResponseView } from "./index";
import { Assertion } from "./schema";

const response = (over: Partial<ResponseView> = {}): ResponseView => ({
  statusCode: 200,
  headers: { "content-type": "application/json; charset=utf-8", "set-cookie": ["a=1", "b=2"] },
  body: JSON.stringify({ status: "ok", count: 3, version: "10", tags: ["x", "y"], empty: [], nested: { a: 1 } }),
  bodyTruncated: false,
  latencyMs: 120,
  jsonText: false,
  ...over,
});
const check = (input: unknown, over?: Partial<ResponseView>) => {
  const [outcome] = evaluateAssertions([Assertion.parse(input)], response(over)).filter(
    (o) => o.kind !== "statusCode" || (input as { kind: string }).kind === "statusCode",
  );
  return outcome!;
};
const ok = (input: unknown, over?: Partial<ResponseView>) => check(input, over).ok;

describe("assertion comparators", () => {
  it("statusCode compares numbers with every ordering comparator", () => {
    expect(ok({ kind: "statusCode", compare: "eq", target: 200 })).toBe(true);
    expect(ok({ kind: "statusCode", compare: "not_eq", target: 200 })).toBe(false);
    expect(ok({ kind: "statusCode", compare: "lt", target: 300 })).toBe(true);
    expect(ok({ kind: "statusCode", compare: "gte", target: 400 })).toBe(false);
    expect(ok({ kind: "statusCode", compare: "gt", target: 199 })).toBe(true);
    expect(ok({ kind: "statusCode", compare: "lte", target: 199 })).toBe(false);
  });

  it("latency compares the measured milliseconds", () => {
    expect(ok({ kind: "latency", compare: "lt", target: 500 })).toBe(true);
    expect(check({ kind: "latency", compare: "lt", target: 100 }).message).toBe("latency: expected lt 100 ms, got 120 ms");
  });

  it("header lookups ignore the name's case; a missing header is empty and contains nothing", () => {
    expect(ok({ kind: "header", key: "Content-Type", compare: "contains", target: "json" })).toBe(true);
    expect(ok({ kind: "header", key: "set-cookie", compare: "eq", target: "a=1, b=2" })).toBe(true);
    expect(ok({ kind: "header", key: "x-none", compare: "empty" })).toBe(true);
    expect(ok({ kind: "header", key: "x-none", compare: "not_contains", target: "a" })).toBe(true);
    expect(ok({ kind: "header", key: "x-none", compare: "eq", target: "" })).toBe(false);
  });

  it("textBody eq is exact for plain checks and structural for JSON-RPC replies", () => {
    const body = '{ "b": 1, "a": [1, 2] }';
    expect(ok({ kind: "textBody", compare: "eq", target: '{"a":[1,2],"b":1}' }, { body })).toBe(false);
    expect(ok({ kind: "textBody", compare: "eq", target: '{"a":[1,2],"b":1}' }, { body, jsonText: true })).toBe(true);
    expect(ok({ kind: "textBody", compare: "eq", target: '{"a":[2,1],"b":1}' }, { body, jsonText: true })).toBe(false);
    expect(ok({ kind: "textBody", compare: "not_eq", target: '{"a":[1,2],"b":1}' }, { body, jsonText: true })).toBe(false);
    expect(ok({ kind: "textBody", compare: "empty" }, { body: " \n" })).toBe(true);
    expect(ok({ kind: "textBody", compare: "not_empty" }, { body: "x" })).toBe(true);
  });

  it("a truncated body says so when a textBody assertion fails", () => {
    expect(check({ kind: "textBody", compare: "contains", target: "end" }, { body: "start", bodyTruncated: true }).message).toBe(
      'textBody: expected contains "end", got "start" (body truncated at 1 MiB)',
    );
  });

  it("jsonBody compares scalars by value, whether YAML gave the target as a number or a string", () => {
    expect(ok({ kind: "jsonBody", path: "$.count", compare: "eq", target: "3" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.version", compare: "eq", target: 10 })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.version", compare: "gt", target: 9 })).toBe(true); // numeric, not "10" < "9"
    expect(ok({ kind: "jsonBody", path: "$.status", compare: "gt", target: 1 })).toBe(false);
    expect(ok({ kind: "jsonBody", path: "$.status", compare: "not_eq", target: "down" })).toBe(true);
  });

  it("jsonBody contains looks into strings and arrays; empty covers missing, null, [] and {}", () => {
    expect(ok({ kind: "jsonBody", path: "$.tags", compare: "contains", target: "y" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.tags", compare: "not_contains", target: "z" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.status", compare: "contains", target: "o" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.empty", compare: "empty" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.missing", compare: "empty" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.nested", compare: "not_empty" })).toBe(true);
    expect(ok({ kind: "jsonBody", path: "$.nested", compare: "eq", target: '{"a":1}' })).toBe(true);
  });

  it("a jsonBody path to nothing, or an unsupported path, fails with a message instead of throwing", () => {
    expect(check({ kind: "jsonBody", path: "$.missing", compare: "eq", target: "x" }).message).toBe(
      'jsonBody $.missing: expected eq "x", got nothing at that path',
    );
    expect(check({ kind: "jsonBody", path: "$..status", compare: "eq", target: "ok" }).message).toBe(
      "jsonBody $..status: invalid JSONPath: recursive descent (..) is not supported",
    );
  });

  it("without a statusCode assertion a 2xx is required, and its outcome comes first", () => {
    const outcomes = evaluateAssertions([Assertion.parse({ kind: "textBody", compare: "not_empty" })], response({ statusCode: 404 }));
    expect(outcomes).toEqual([
      { kind: "statusCode", ok: false, message: "statusCode: expected 2xx, got 404" },
      { kind: "textBody", ok: true, message: expect.stringMatching(/^textBody: not_empty/) },
    ]);
  });
});
