import { existsSync } from "node:fs";
import { CHANNEL_KINDS as DB_CHANNEL_KINDS } from "@vigil/db-schema";
import { describe, expect, it } from "vitest";
import { CHANNEL_KINDS, channels } from "./registry";

describe("channel registry", () => {
  it("offers exactly the channel kinds the database accepts, in the same order", () => {
    expect(CHANNEL_KINDS).toEqual(DB_CHANNEL_KINDS);
  });

  it.each(CHANNEL_KINDS)("%s is registered under its own kind, with its file and its test beside it", (kind) => {
    expect(channels[kind].kind).toBe(kind);
    expect(existsSync(new URL(`./channels/${kind}.ts`, import.meta.url))).toBe(true);
    expect(existsSync(new URL(`./channels/${kind}.test.ts`, import.meta.url))).toBe(true);
  });

  it.each(CHANNEL_KINDS)("every secret %s lists is a field of its config", (kind) => {
    const fields = Object.keys(channels[kind].config.shape);
    for (const secret of channels[kind].secrets) expect(fields).toContain(secret);
  });
});
