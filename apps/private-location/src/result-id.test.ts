import { Ulid } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { resultId } from "./probe";

describe("result ids", () => {
  it("are ULIDs the server accepts and never repeat, across many refills of the random pool", () => {
    // 16 random characters an id: 20,000 ids draw the 4 KB pool about 80 times.
    const ids = Array.from({ length: 20_000 }, resultId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Ulid.safeParse(id).success)).toBe(true);
    // Every character of the random part is used: the bytes are spread over the whole alphabet.
    const chars = new Set(ids.flatMap((id) => [...id.slice(10)]));
    expect(chars.size).toBe(32);
  });
});
