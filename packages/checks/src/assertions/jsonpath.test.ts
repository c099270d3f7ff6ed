import { describe, expect, it } from "vitest";
import { parseJsonPath, queryJsonPath } from "./jsonpath";

const doc = { status: "ok", items: [{ id: 1, tags: ["a"] }, { id: 2 }], "a-b": { "c.d": 5 }, n: null, "it's": 1 };
const q = (path: string) => queryJsonPath(doc, parseJsonPath(path));

describe("JSONPath subset", () => {
  it("reads dotted names, indexes and bracket-quoted names", () => {
    expect(q("$")).toEqual(doc);
    expect(q("$.status")).toBe("ok");
    expect(q("$.items[1].id")).toBe(2);
    expect(q("$.items[-1].id")).toBe(2);
    expect(q("$.items[0].tags[0]")).toBe("a");
    expect(q("$[\"a-b\"]['c.d']")).toBe(5);
    expect(q("$['it\\'s']")).toBe(1);
    expect(q("$[ 'status' ]")).toBe("ok");
    expect(q("$.n")).toBeNull();
  });

  it("a path to nothing gives undefined, not an error", () => {
    expect(q("$.missing")).toBeUndefined();
    expect(q("$.items[5].id")).toBeUndefined();
    expect(q("$.status.deeper")).toBeUndefined();
    expect(q("$.items.id")).toBeUndefined(); // a name on an array matches nothing
    expect(q("$.items[0][0]")).toBeUndefined();
  });

  it("a wildcard gives every match as an array", () => {
    expect(q("$.items[*].id")).toEqual([1, 2]);
    expect(q("$.items.*.id")).toEqual([1, 2]);
    expect(q("$.nothing[*]")).toEqual([]);
  });

  it("unsupported or malformed paths are refused with a reason", () => {
    expect(() => parseJsonPath("status")).toThrow("must start with $");
    expect(() => parseJsonPath("$..id")).toThrow("recursive descent");
    expect(() => parseJsonPath("$.items[?(@.id)]")).toThrow("filters and slices are not supported");
    expect(() => parseJsonPath("$['open")).toThrow("unterminated string");
    expect(() => parseJsonPath("$.items[0")).toThrow('expected "]"');
    expect(() => parseJsonPath("$.")).toThrow('expected a name after "."');
  });
});
