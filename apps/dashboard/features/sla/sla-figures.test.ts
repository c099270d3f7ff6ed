// The SLA view's words from core's report on a real database: what a person reads is what was measured.

import { createMonitor, monitorSlaReport, recordResults, reportRange } from "@vigil/core";
import { probeResult, workspaceWithLocations } from "@vigil/core/testing";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedLine, slaFigures } from "./sla-figures";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

const MIN = 60_000;

describe("the SLA view's figures", () => {
  it("a monitor created 10 minutes ago with a 2-minute outage reads 10 measured minutes and a 0.6 s budget, not the month's", async () => {
    const now = Date.UTC(2026, 10, 18, 10, 10);
    const { ws, locations } = await workspaceWithLocations(t.db, "young", ["iad"]);
    const m = await createMonitor(
      t.db,
      ws,
      { name: "api", kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
      "operator",
    );
    const results = Array.from({ length: 10 }, (_, i) =>
      probeResult(m.id, now - 10 * MIN + i * MIN, i === 4 || i === 5 ? "error" : "success", { latencyMs: 5, attempts: 1 }),
    );
    await recordResults(t.db, locations[0]!, { results }, now);
    const r = await monitorSlaReport(t.db, ws, m.id, reportRange({ month: "2026-11" }, now), 0.999, now);
    const f = Object.fromEntries(slaFigures(r).map((x) => [x.key, x]));
    expect(f.uptime!.value).toBe("80.000 %");
    expect(f.allowed!.value).toBe("0.6 s");
    expect(f.allowed!.detail).toContain("0.1 % of 10 min counted");
    expect(f.used!.value).toBe("2 min");
    expect(f.remaining!.value).toBe("Budget exhausted");
    expect(f.remaining!.detail).toBe("overspent by 1 min 59 s (-19900.0 %)");
    expect(countedLine(r)).toBe(
      "Measured 10 min from 2026-11-18 10:00 UTC: 8 min up · 2 min down. 10 checks counted; degraded checks count as up.",
    );
  });

  it("time no probe reported is named as no data, apart from up and down", async () => {
    const now = Date.UTC(2026, 10, 18, 10, 10);
    const { ws, locations } = await workspaceWithLocations(t.db, "gappy", ["iad"]);
    const m = await createMonitor(
      t.db,
      ws,
      { name: "db", kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
      "operator",
    );
    const results = [0, 1, 2, 6, 7, 8, 9].map((i) => probeResult(m.id, now - 10 * MIN + i * MIN, "success", { latencyMs: 5, attempts: 1 }));
    await recordResults(t.db, locations[0]!, { results }, now);
    const r = await monitorSlaReport(t.db, ws, m.id, reportRange({ month: "2026-11" }, now), 0.999, now);
    expect(countedLine(r)).toBe(
      "Measured 10 min from 2026-11-18 10:00 UTC: 7 min up · 0 s down · 3 min no data. 7 checks counted; degraded checks count as up.",
    );
    expect(slaFigures(r).find((x) => x.key === "uptime")!.value).toBe("100.000 %");
  });
});
