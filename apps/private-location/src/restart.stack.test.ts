// A probe SIGKILLed and restarted: the slots that fell due while it was away run late, with their own slot time.
import { checkResultRow } from "@vigil/db-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProbeProc, removeDir, type Stack, startProbe, startStack, tcpTarget, waitFor } from "./test-harness";

const SLOT = 30_000;

describe("a probe restarted mid-window", () => {
  let stack: Stack;
  let probe: ProbeProc;
  let target: Awaited<ReturnType<typeof tcpTarget>>;
  const env = () => ({
    SERVICE_KEY: stack.serviceKey,
    SERVICE_INGEST_URL: stack.serverUrl,
    PROBE_SEND_INTERVAL_MS: "200",
    PROBE_COMMIT_MS: "10",
    PROBE_WAIT_MS: "2000",
  });

  beforeAll(async () => {
    [stack, target] = await Promise.all([startStack("iad"), tcpTarget()]);
    probe = await startProbe(env());
  });
  afterAll(async () => {
    await probe?.kill("SIGKILL");
    if (probe) removeDir(probe.dataDir);
    await Promise.all([stack?.close(), target?.close()]);
  });

  it("runs each slot that fell due while it was away, late, with its own slot time, and skips none", { timeout: 120_000 }, async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await stack.api("POST", "/v1/monitors", {
        name: `tcp ${i}`,
        kind: "tcp",
        frequency: "30s",
        regions: ["iad"],
        retry: 0,
        request: { host: "127.0.0.1", port: target.port },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await waitFor(
      "a result of every monitor",
      async () => new Set((await stack.results()).map((r) => r.monitorId)).size === ids.length,
      SLOT + 10_000,
      250,
    );
    // Let every monitor's first slot after this pass, so the probe has handled (and kept) its slots.
    await new Promise((r) => setTimeout(r, 3000));
    const killedAt = Date.now();
    await probe.kill("SIGKILL");
    // Away for 8 s: about a quarter of the monitors' slots fall due meanwhile.
    await new Promise((r) => setTimeout(r, 8000));
    const backAt = Date.now();
    probe = await startProbe(env(), { dataDir: probe.dataDir });
    // Until a whole period after the restart, every slot of every monitor has a result.
    await new Promise((r) => setTimeout(r, Math.max(0, backAt + SLOT + 3000 - Date.now())));
    await waitFor("the outbox to drain", async () => (await probe.status()).outbox.depth === 0, 10_000, 250);
    const rows = await stack.database.db
      .select({ monitorId: checkResultRow.monitorId, slot: checkResultRow.cronTimestamp, startOffset: checkResultRow.startOffsetMs })
      .from(checkResultRow);
    const late: { slot: number; startOffset: number }[] = [];
    for (const id of ids) {
      const mine = rows.filter((r) => r.monitorId === id).sort((a, b) => a.slot - b.slot);
      const slots = mine.map((r) => r.slot);
      // No gap: consecutive slots one period apart from the first to the last.
      for (let k = 1; k < slots.length; k++) expect(slots[k]! - slots[k - 1]!, `monitor ${id}'s slots ${slots}`).toBe(SLOT);
      expect(slots.at(-1)!).toBeGreaterThan(backAt);
      for (const r of mine) if (r.slot > killedAt && r.slot < backAt) late.push(r);
    }
    // The slots that fell due while the probe was away ran after its return, each with its own slot time.
    expect(late.length).toBeGreaterThanOrEqual(1);
    for (const r of late) expect(r.slot + r.startOffset).toBeGreaterThanOrEqual(backAt - 1000);
  });
});
