import type { TestDatabase } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import { createComponent, createMonitor, createStatusPage, recordResults } from "../index";
import { probeResult, useTestDatabase, workspaceWithLocations } from "../testing";
import { monitorSlaReport, pageSlaReport, reportRange, slaCsv, slaDowntime, slaTarget } from "./report";

const NOV = Date.UTC(2026, 10, 1);

const MIN = 60_000;

let t: TestDatabase;
useTestDatabase((started) => {
  t = started;
});

type Place = Awaited<ReturnType<typeof workspaceWithLocations>>;

/** A 1-minute monitor whose results are `statuses`, one a minute from `start` (null: no result). */
async function monitorWith(name: string, start: number, statuses: ("success" | "error" | null)[], place?: Place) {
  const { ws, locations } = place ?? (await workspaceWithLocations(t.db, `ws-${Math.random()}`, ["iad"]));
  const m = await createMonitor(
    t.db,
    ws,
    { name, kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
    "operator",
  );
  const results = statuses.flatMap((s, i) => (s ? [probeResult(m.id, start + i * MIN, s, { latencyMs: 5, attempts: 1 })] : []));
  await recordResults(t.db, locations[0]!, { results }, start + statuses.length * MIN);
  return { ws, id: m.id };
}

describe("the error budget in time", () => {
  it("a monitor created 10 minutes ago with a 2-minute outage reports its 10 measured minutes, not the month's", async () => {
    const now = Date.UTC(2026, 10, 18, 10, 10);
    const m = await monitorWith("api", now - 10 * MIN, [
      "success",
      "success",
      "success",
      "success",
      "error",
      "error",
      "success",
      "success",
      "success",
      "success",
    ]);
    const range = reportRange({ month: "2026-11" }, now);
    const r = await monitorSlaReport(t.db, m.ws, m.id, range, slaTarget(99.9), now);
    expect(r).toMatchObject({ from: NOV, to: now, checks: 10, failed: 2, inMaintenance: 0, uptime: 0.8 });
    expect(r).toMatchObject({
      measuredFrom: now - 10 * MIN,
      measuredTo: now,
      measuredMs: 10 * MIN,
      upMs: 8 * MIN,
      downMs: 2 * MIN,
      noDataMs: 0,
    });
    // 0.1 % of 10 minutes is 0.6 s; 2 minutes down use it 200 times over.
    expect(r.errorBudget.allowedMs).toBeCloseTo(600, 6);
    expect(r.errorBudget.usedMs).toBe(2 * MIN);
    expect(r.errorBudget.remaining).toBeCloseTo(-199, 6);
    expect(slaDowntime(r)).toEqual({
      countedMs: 10 * MIN,
      allowedMs: r.errorBudget.allowedMs,
      usedMs: 2 * MIN,
      remainingMs: r.errorBudget.remainingMs,
    });
    const [head, line] = slaCsv(r).split("\n");
    const row = Object.fromEntries(head!.split(",").map((k, i) => [k, line!.split(",")[i]]));
    expect(row).toMatchObject({
      checks: "10",
      failed: "2",
      uptime_percent: "80.0000",
      measured_from: "2026-11-18T10:00:00.000Z",
      measured_to: "2026-11-18T10:10:00.000Z",
      measured_s: "600.000",
      up_s: "480.000",
      down_s: "120.000",
      no_data_s: "0.000",
      allowed_downtime_s: "0.600",
      downtime_used_s: "120.000",
    });
  });

  it("a page's report adds its monitors' measured time, each from its own first check, gaps as no data", async () => {
    const now = Date.UTC(2026, 10, 18, 10, 10);
    const place = await workspaceWithLocations(t.db, `ws-${Math.random()}`, ["iad"]);
    const a = await monitorWith("a", now - 10 * MIN, Array(10).fill("success"), place);
    const b = await monitorWith("b", now - 4 * MIN, ["success", null, "error", "success"], place);
    const page = await createStatusPage(t.db, place.ws, { slug: `p-${Math.random().toString(36).slice(2, 8)}`, title: "Acme" }, "operator");
    for (const m of [a, b]) await createComponent(t.db, place.ws, page.id, { name: `c${m.id}`, monitorId: m.id }, "operator");
    const r = await pageSlaReport(t.db, place.ws, page.id, reportRange({ month: "2026-11" }, now), 0.999, now);
    expect(r.monitors.find((m) => m.monitorId === b.id)).toMatchObject({
      measuredFrom: now - 4 * MIN,
      measuredMs: 4 * MIN,
      upMs: 2 * MIN,
      downMs: MIN,
      noDataMs: MIN,
      checks: 3,
      failed: 1,
    });
    expect(r).toMatchObject({
      measuredFrom: now - 10 * MIN,
      measuredMs: 14 * MIN,
      upMs: 12 * MIN,
      downMs: MIN,
      noDataMs: MIN,
      checks: 13,
      failed: 1,
    });
    expect(r.uptime).toBe(12 / 13);
  });
});

describe("the objective", () => {
  it("a percent becomes the fraction reports take, without float noise", () => {
    expect(slaTarget(99.9)).toBe(0.999);
    expect(slaTarget(99.95)).toBe(0.9995);
    expect(slaTarget(99)).toBe(0.99);
  });
});

describe("the report's range", () => {
  it("the month in progress ends now, and a month ahead is refused naming the month field", () => {
    const now = Date.UTC(2026, 10, 27, 19);
    expect(reportRange({ month: "2026-11" }, now)).toEqual({ from: NOV, to: now });
    expect(() => reportRange({ month: "2026-12" }, now)).toThrow(/month must not be in the future/);
  });
});
