import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHECK_KINDS } from "@vigil/api-contract";
import { parseMonitorsYaml } from "@vigil/monitors-yaml";
import { mutate, prng, VALID_FILE } from "@vigil/monitors-yaml/testing";
import { describe, expect, it } from "vitest";
import { run } from "./main";
import { capture } from "./testing/harness";

describe("vigil validate (offline)", () => {
  it("a valid file exits 0 and says how many monitors it holds", async () => {
    const t = capture();
    writeFileSync(join(t.dir, "monitors.yaml"), VALID_FILE);
    expect(await run(["validate", "monitors.yaml"], t.io)).toBe(0);
    expect(t.stdout()).toBe("monitors.yaml: 2 monitors, no problems\n");
    expect(t.stderr()).toBe("");
  });

  it("an invalid file exits 1 and prints every problem with file, line and key", async () => {
    const t = capture();
    writeFileSync(join(t.dir, "monitors.yaml"), VALID_FILE.replace("frequency: 1m", "frequency: 2m").replace("port: 5432", "port: 0"));
    expect(await run(["validate", "monitors.yaml"], t.io)).toBe(1);
    expect(t.stderr()).toBe(
      [
        'monitors.yaml:5:14 api-health.frequency must be one of 30s, 1m, 5m, 10m, 30m, 1h (got "2m")',
        "monitors.yaml:28:39 postgres.request.port must be 1-65535 (got 0)",
        "monitors.yaml: 2 problems",
        "",
      ].join("\n"),
    );
    expect(t.stdout()).toBe("");
  });

  it("--json reports problems as data, with the same exit code", async () => {
    const t = capture();
    writeFileSync(join(t.dir, "m.yaml"), "api:\n  kind: udp\n");
    expect(await run(["validate", "m.yaml", "--json"], t.io)).toBe(1);
    expect(JSON.parse(t.stdout())).toMatchObject({ ok: false, errors: [{ file: "m.yaml", line: 2, column: 9, path: "api.kind" }] });
  });

  it("a missing file exits 1 naming it", async () => {
    const t = capture();
    expect(await run(["validate", "nope.yaml"], t.io)).toBe(1);
    expect(t.stderr()).toBe("vigil: cannot read nope.yaml: no such file\n");
  });

  it("a sample of 100 mutated files: invalid ones exit 1 with located messages, valid ones exit 0", async () => {
    const rand = prng(4242);
    let invalid = 0;
    for (let n = 0; n < 100; n++) {
      const text = mutate(VALID_FILE, rand);
      const t = capture();
      writeFileSync(join(t.dir, "monitors.yaml"), text);
      const code = await run(["validate", "monitors.yaml"], t.io);
      if (parseMonitorsYaml(text).ok) {
        expect(code).toBe(0);
        continue;
      }
      invalid++;
      expect(code, text).toBe(1);
      expect(t.stderr(), text).toMatch(/^monitors\.yaml:\d+:\d+ \S/m);
    }
    expect(invalid).toBeGreaterThan(50);
  });
});

describe("vigil schema", () => {
  it("prints a JSON Schema editors can use", async () => {
    const t = capture();
    expect(await run(["schema"], t.io)).toBe(0);
    const schema = JSON.parse(t.stdout());
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.additionalProperties.oneOf).toHaveLength(CHECK_KINDS.length);
  });
});

describe("help and usage", () => {
  it("--help works on the program and on every command, exit 0", async () => {
    const t = capture();
    expect(await run(["--help"], t.io)).toBe(0);
    const commands = ["create", "apply", "import", "validate", "schema", "list", "delete", "trigger", "whoami", "login"];
    for (const cmd of commands) expect(t.stdout()).toContain(`\n  ${cmd} `);
    for (const cmd of commands) {
      const c = capture();
      expect(await run([cmd, "--help"], c.io)).toBe(0);
      expect(c.stdout()).toContain(`Usage: vigil ${cmd}`);
    }
  });

  it("an unknown command or a missing argument exits 1", async () => {
    const a = capture();
    expect(await run(["frobnicate"], a.io)).toBe(1);
    expect(a.stderr()).toContain("unknown command 'frobnicate'");
    const b = capture();
    expect(await run(["create"], b.io)).toBe(1);
    expect(b.stderr()).toContain("missing required argument 'config_file'");
  });
});
