// A probe SIGKILLed and restarted: the slots that fell due while it was away run late, with their own slot time.
import { checkResultRow } from "@vigil/db-schema";
import { metricsHeaders } from "@vigil/testing";
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

  it("runs each slot that fell due while it was away and whose window is open, late, with its own slot time; the server counts the others as missed", {
    timeout: 150_000,
  }, async () => {
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
    // Each new monitor is checked at once.
    await waitFor(
      "a result of every monitor",
      async () => new Set((await stack.results()).map((r) => r.monitorId)).size === ids.length,
      15_000,
      250,
    );
    await new Promise((r) => setTimeout(r, 3000));
    const killedAt = Date.now();
    await probe.kill("SIGKILL");
    // Away for 40 s, more than a period: some slots' windows close meanwhile, others are still open at the return.
    await new Promise((r) => setTimeout(r, 40_000));
    const backAt = Date.now();
    probe = await startProbe(env(), { dataDir: probe.dataDir });
    const readyAt = Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, backAt + SLOT + 3000 - Date.now())));
    await waitFor("the outbox to drain", async () => (await probe.status()).outbox.depth === 0, 10_000, 250);
    const rows = await stack.database.db
      .select({ monitorId: checkResultRow.monitorId, slot: checkResultRow.cronTimestamp, startOffset: checkResultRow.startOffsetMs })
      .from(checkResultRow);
    const late: { slot: number; startOffset: number }[] = [];
    let absent = 0;
    for (const id of ids) {
      const mine = rows.filter((r) => r.monitorId === id).sort((a, b) => a.slot - b.slot);
      const slots = mine.map((r) => r.slot);
      expect(slots.at(-1)!).toBeGreaterThan(backAt);
      for (let k = 1; k < slots.length; k++) {
        // A slot without a result is one whose whole window passed while the probe was away (or the moment of the kill).
        for (let gap = slots[k - 1]! + SLOT; gap < slots[k]!; gap += SLOT) {
          absent++;
          expect(gap, `monitor ${id}'s slots ${slots}`).toBeGreaterThan(killedAt - 1000);
          expect(gap + SLOT - 1000, `monitor ${id}'s slots ${slots}`).toBeLessThanOrEqual(readyAt + 1000);
        }
      }
      for (const r of mine) if (r.slot > killedAt && r.slot < backAt) late.push(r);
    }
    // The slots still open at the return ran after it, each with its own slot time.
    expect(late.length).toBeGreaterThanOrEqual(1);
    for (const r of late) expect(r.slot + r.startOffset).toBeGreaterThanOrEqual(backAt - 1000);
    // The server counted exactly the slots that have no result.
    expect(absent).toBeGreaterThanOrEqual(1);
    const metrics = await (await fetch(`${stack.serverUrl}/metrics`, { headers: metricsHeaders() })).text();
    const line = metrics
      .split("\n")
      .find((l) => l.startsWith("vigil_location_slots_missed_total{") && l.includes(`location="${stack.locationId}"`));
    expect(Number(line?.split(" ").at(-1))).toBe(absent);
  });
});
