import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProbeMonitorList, TcpCheck } from "@vigil/api-contract";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { Outbox } from "./outbox";
import { slotAtOrAfter, slotOffset } from "./scheduler";
import { removeDir, startProbe, tcpTarget, waitFor } from "./test-harness";

const SLOT = 30_000;

/** A monitor id whose next 30 s slot comes 3-6 s from now, so the test need not wait a whole period. */
function idWithSlotSoon(): { id: number; slot: number } {
  const now = Date.now();
  for (let id = 1000; ; id++) {
    const slot = slotAtOrAfter(now + 3000, SLOT, slotOffset(id, SLOT));
    if (slot - now <= 6000) return { id, slot };
  }
}

describe("probe lifecycle without a server", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) removeDir(d);
  });

  it("runs the monitors of its last sync while the server is unreachable, and on SIGTERM exits 0 keeping unsent results on disk", {
    timeout: 90_000,
  }, async () => {
    const target = await tcpTarget();
    const dataDir = mkdtempSync(join(tmpdir(), "vigil-probe-"));
    dirs.push(dataDir);
    try {
      const { id, slot } = idWithSlotSoon();
      const list: ProbeMonitorList = {
        location: { id: 1, name: "edge", region: "iad" },
        monitors: [
          {
            id,
            name: "db",
            frequency: "30s",
            intervalMs: SLOT,
            version: 1,
            check: TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: target.port, retry: 0 }),
            openTelemetry: null,
          },
        ],
      };
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, "monitors.json"), JSON.stringify({ etag: '"1-x"', list }));
      const probe = await startProbe(
        { SERVICE_KEY: "vgl_loc_whatever", SERVICE_INGEST_URL: "http://127.0.0.1:9", PROBE_MAX_BACKOFF_MS: "500" },
        { dataDir },
      );
      // A probe slow to start (a busy machine) runs the slot after: one interval more.
      await waitFor("the cached monitor's slot to run", async () => (await probe.status()).outbox.depth >= 1, 15_000 + SLOT, 200);
      probe.child.kill("SIGTERM");
      expect(await probe.exit).toBe(0);
      const stopped = probe.logs().find((l) => l.msg === "probe stopped; unsent results stay in the outbox");
      expect(stopped?.outboxDepth).toBe(1);

      const outbox = await Outbox.open({
        dir: join(dataDir, "outbox"),
        maxBytes: 1 << 20,
        maxAgeMs: 3_600_000,
        logger: pino({ level: "silent" }),
      });
      const batch = await outbox.read(10);
      await outbox.close();
      expect(batch?.records).toHaveLength(1);
      expect(batch?.records[0]).toMatchObject({ monitorId: id, status: "success" });
      expect([slot, slot + SLOT]).toContain(batch?.records[0]?.cronTimestamp);
      expect(target.connections()).toBe(1);
    } finally {
      await target.close();
    }
  });
});
