import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CHECK_KINDS, CheckDefinition, kindOf } from "./index";

describe("check kinds registry", () => {
  it.each(CHECK_KINDS.map(kindOf))("a $kind monitor's fields survive being stored and read back, and make a valid check", (kind) => {
    const fields = z.object(kind.input).parse({ request: kind.exampleRequest });
    const stored = kind.toRow(fields);
    expect(kind.fromRow(stored, true)).toEqual(z.object(kind.output).parse(fields));
    const check = CheckDefinition.parse({ kind: kind.kind, ...kind.toCheck(fields) });
    expect(check.kind).toBe(kind.kind);
    expect(kind.target(stored)).not.toBe("");
  });

  it.each(CHECK_KINDS)("a monitor that stops being %s has that kind's stored columns cleared", (name) => {
    expect(Object.values(kindOf(name).toRow(undefined)).every((v) => v === null)).toBe(true);
  });
});
