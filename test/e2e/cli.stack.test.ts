// The vigil CLI against a real server process (and a real probe for trigger).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBundle, serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type Stack, startStack, Targets } from "./harness";

let stack: Stack;
const targets = new Targets();

const vigil = (...args: string[]) => runCli(stack, ...args);
// File paths are absolute: the CLI runs from the repository root.
const cliFrom = (dir: string) => (file: string) => join(dir, file);

beforeAll(async () => {
  await targets.start();
  stack = await startStack(["iad"]);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await targets.stop();
});

const yaml = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([key, path]) => `${key}:\n  kind: http\n  frequency: 1m\n  regions: [iad]\n  request: { url: "${targets.url(path)}" }\n`)
    .join("");

describe("vigil against a real server", () => {
  it("create, apply with a plan and prune, import, list, trigger, delete", { timeout: 180_000 }, async () => {
    const file = cliFrom(stack.dir);
    writeFileSync(file("a.yaml"), yaml({ web: "/web", api: "/api" }));
    const created = await vigil("create", file("a.yaml"));
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/web/);

    writeFileSync(file("b.yaml"), yaml({ web: "/web2", docs: "/docs" }));
    const dry = await vigil("apply", file("b.yaml"), "--dry-run", "--prune");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/\+ docs/);
    expect(dry.out).toMatch(/~ web/);
    expect(dry.out).toMatch(/- api/);
    expect(
      JSON.parse((await vigil("list", "--json")).out)
        .map((m: { key: string }) => m.key)
        .sort(),
    ).toEqual(["api", "web"]);

    const keep = await vigil("apply", file("b.yaml"));
    expect(keep.code, keep.err).toBe(0);
    expect(
      JSON.parse((await vigil("list", "--json")).out)
        .map((m: { key: string }) => m.key)
        .sort(),
    ).toEqual(["api", "docs", "web"]);
    const pruned = await vigil("apply", file("b.yaml"), "--prune");
    expect(pruned.code, pruned.err).toBe(0);
    const after = JSON.parse((await vigil("list", "--json")).out) as { id: number; key: string; request: { url: string } }[];
    expect(after.map((m) => m.key).sort()).toEqual(["docs", "web"]);
    expect(after.find((m) => m.key === "web")!.request.url).toBe(targets.url("/web2"));

    const imported = await vigil("import", "-o", file("out.yaml"));
    expect(imported.code, imported.err).toBe(0);
    const text = readFileSync(file("out.yaml"), "utf8");
    expect(text).toContain(targets.url("/docs"));
    const again = await vigil("apply", file("out.yaml"), "--dry-run");
    expect(again.out).not.toMatch(/^[+~-] /m);

    targets.modes.set("/web2", "down");
    const web = after.find((m) => m.key === "web")!;
    const trig = await vigil("trigger", String(web.id));
    expect(trig.code, trig.err).toBe(0);
    expect(trig.out).toMatch(/ran on probe-0-iad \(iad\)/);
    expect(trig.out).toMatch(/^error .*HTTP 503/m);

    const bad = await vigil("validate", file("nope.yaml"));
    expect(bad.code).toBe(1);
    const del = await vigil("delete", String(web.id));
    expect(del.code, del.err).toBe(0);
    expect(JSON.parse((await vigil("list", "--json")).out).map((m: { key: string }) => m.key)).toEqual(["docs"]);
  });

  it("a file with one invalid entry creates nothing and names the line; an unreachable server exits 2", async () => {
    const file = cliFrom(stack.dir);
    writeFileSync(
      file("bad.yaml"),
      `${yaml({ ok: "/ok" })}broken:\n  kind: http\n  frequency: 2m\n  regions: [iad]\n  request: { url: "${targets.url("/b")}" }\n`,
    );
    const r = await vigil("create", file("bad.yaml"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.yaml:8:14 broken\.frequency must be one of 30s, 1m, 5m, 10m, 30m, 1h \(got "2m"\)/);
    expect(JSON.parse((await vigil("list", "--json")).out).map((m: { key: string }) => m.key)).not.toContain("ok");
    const down = await runBundle(serviceBundle("cli", "vigil"), ["list"], {
      env: { VIGIL_API_URL: "http://127.0.0.1:9", VIGIL_API_TOKEN: stack.apiKey, VIGIL_CONFIG: join(stack.dir, "none.json") },
    });
    expect(down.code).toBe(2);
  });
});
