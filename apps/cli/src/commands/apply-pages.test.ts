// `vigil apply` of files bigger than one request against the real server routes and database.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { listMonitors } from "@vigil/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/src/testing";
import { run } from "../main";
import { capture } from "../testing/harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(async () => s?.close());

const entry = (i: number, port = 1000 + i, extra = "") =>
  `m${i}:\n  kind: tcp\n  frequency: 1m\n  regions: [iad]\n  request: { host: 127.0.0.1, port: ${port} }\n${extra}`;
function cli(entries: string[]) {
  const t = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
  writeFileSync(join(t.dir, "monitors.yaml"), entries.join(""));
  return t;
}
const keys = async () => (await listMonitors(s.database.db, s.workspaceId)).map((m) => m.key).sort();

describe("vigil apply of a file over 1,000 monitors", () => {
  it("applies all 1,200 in pages, and with --prune deletes only what the whole file leaves out", { timeout: 120_000 }, async () => {
    const first = cli(Array.from({ length: 1200 }, (_, i) => entry(i)));
    expect(await run(["apply", "monitors.yaml"], first.io), first.stderr()).toBe(0);
    expect(first.stdout()).toContain("applied: 1200 created, 0 updated, 0 deleted, 0 unchanged");
    expect((await keys()).length).toBe(1200);

    // The last 100 entries dropped, one changed: the prune spares the 1,000 kept in the file's earlier pages.
    const second = cli(Array.from({ length: 1100 }, (_, i) => entry(i, i === 700 ? 9999 : 1000 + i)));
    expect(await run(["apply", "monitors.yaml", "--prune", "--dry-run"], second.io), second.stderr()).toBe(0);
    expect(second.stdout()).toContain("plan: 0 to create, 1 to update, 100 to delete, 1099 unchanged (dry run, nothing changed)");
    expect((await keys()).length).toBe(1200);
    const pruned = cli(Array.from({ length: 1100 }, (_, i) => entry(i, i === 700 ? 9999 : 1000 + i)));
    expect(await run(["apply", "monitors.yaml", "--prune"], pruned.io), pruned.stderr()).toBe(0);
    expect(pruned.stdout()).toContain("applied: 0 created, 1 updated, 100 deleted, 1099 unchanged");
    expect(await keys()).toEqual(Array.from({ length: 1100 }, (_, i) => `m${i}`).sort());
  });

  it("an entry the server refuses in the last page writes nothing and is named at its line in the file", { timeout: 120_000 }, async () => {
    const before = await keys();
    const entries = Array.from({ length: 1300 }, (_, i) => entry(5000 + i, 2000 + i, i === 1250 ? "  channels: [no-such-channel]\n" : ""));
    const t = cli(entries);
    expect(await run(["apply", "monitors.yaml"], t.io)).toBe(1);
    expect(t.stderr()).toContain("monitors.yaml:");
    expect(t.stderr()).toContain('m6250.channels[0] no notification channel named "no-such-channel"');
    expect(await keys()).toEqual(before);
  });

  it("its --help says how a file over 1,000 monitors is applied", async () => {
    const t = capture();
    expect(await run(["apply", "--help"], t.io)).toBe(0);
    expect(t.stdout().replace(/\s+/g, " ")).toContain(
      "Up to 1,000 monitors are one all-or-nothing request; a bigger file goes in pages of 500",
    );
  });
});
