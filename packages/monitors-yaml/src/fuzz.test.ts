import { MonitorInput } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { parseMonitorsYaml } from "./index";
import { mutate, prng, VALID_FILE } from "./testing/mutate";

describe("mutated files", () => {
  it("the unmutated file is valid", () => {
    expect(parseMonitorsYaml(VALID_FILE).ok).toBe(true);
  });

  it("1,000 mutations never throw; each invalid one names a location inside the file", () => {
    const rand = prng(9001);
    let invalid = 0;
    for (let n = 0; n < 1000; n++) {
      const text = mutate(VALID_FILE, rand);
      const result = parseMonitorsYaml(text, "monitors.yaml");
      if (result.ok) {
        // Whatever still parses is a real monitor list.
        for (const m of result.monitors) expect(MonitorInput.safeParse(m).success).toBe(true);
        continue;
      }
      invalid++;
      const lines = text.split("\n");
      expect(result.errors.length, text).toBeGreaterThan(0);
      for (const e of result.errors) {
        expect(e.message, text).toMatch(/^monitors\.yaml:\d+:\d+ \S/);
        expect(e.message.startsWith(`monitors.yaml:${e.line}:${e.column} `)).toBe(true);
        expect(e.line, `${e.message}\n---\n${text}`).toBeGreaterThanOrEqual(1);
        expect(e.line, `${e.message}\n---\n${text}`).toBeLessThanOrEqual(lines.length + 1);
        expect(e.column, `${e.message}\n---\n${text}`).toBeGreaterThanOrEqual(1);
        expect(e.column, `${e.message}\n---\n${text}`).toBeLessThanOrEqual((lines[e.line - 1]?.length ?? 0) + 1);
      }
    }
    // The mutations must actually break files, or this test proves little.
    expect(invalid).toBeGreaterThan(500);
  });

  it("random bytes never throw", () => {
    const rand = prng(7);
    for (let n = 0; n < 200; n++) {
      const text = Array.from({ length: Math.floor(rand() * 200) }, () => String.fromCharCode(Math.floor(rand() * 0x7f))).join("");
      const result = parseMonitorsYaml(text);
      if (!result.ok) expect(result.errors[0]?.message).toMatch(/^monitors\.yaml:\d+:\d+ /);
    }
  });
});
