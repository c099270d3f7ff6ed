import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { channels } from "@vigil/notifier";
import { describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

describe("the README", () => {
  it("documents every channel kind with every config field its schema accepts", () => {
    for (const [kind, channel] of Object.entries(channels)) {
      const row = readme.split("\n").find((l) => l.startsWith(`| \`${kind}\` |`));
      expect(row, `a row for ${kind}`).toBeDefined();
      for (const field of Object.keys((channel.config as unknown as { shape: Record<string, unknown> }).shape))
        expect(row, `${kind}.${field}`).toContain(`\`${field}`);
    }
  });
});
