import type { TestDatabase } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import { createMaintenance, createMonitor, recordResults } from "../index";
import { probeResult, useTestDatabase, workspaceWithLocations } from "../testing";
import { measure, measuredDays, timeBudget, uptimeOf } from "./index";

let t: TestDatabase;
useTestDatabase((started) => {
  t = started;
});

const MIN = 60_000;
const DAY = 86_400_000;
// A Wednesday at 10:00 UTC, inside a 30-day period that started on the 1st.
const PERIOD = Date.UTC(2026, 10, 1);
const T0 = Date.UTC(2026, 10, 18, 10);

type Status = "success" | "degraded" | "error";

/** A new 1-minute monitor served from `regions` and a way to report a slot's result from one location. */
async function monitorIn(regions: string[]) {
  const { ws, locations } = await workspaceWithLocations(t.db, `ws-${Math.random()}`, regions);
  const m = await createMonitor(t.db, ws, { kind: "tcp", frequency: "1m", regions, request: { host: "127.0.0.1", port: 9 } }, "operator");
  const report = async (cron: number, status: Status, at = 0) => {
    const out = await recordResults(
      t.db,
      locations[at]!,
      { results: [probeResult(m.id, cron, status, { latencyMs: 5, attempts: 1 })] },
      cron + 1000,
    );
    expect(out.accepted).toBe(1);
  };
  return { ws, id: m.id, report };
}

/** Reports slots T0 + i minutes for each status given (null: no probe reported that slot). */
async function timeline(report: (cron: number, s: Status) => Promise<void>, start: number, slots: (Status | null)[]) {
  for (const [i, s] of slots.entries()) if (s) await report(start + i * MIN, s);
}

const ok = (n: number) => Array<Status>(n).fill("success");

describe("what was measured", () => {
  it("a monitor created 10 minutes ago with a 2-minute outage shows 10 minutes measured, 2 down, over a 30-day period", async () => {
    const m = await monitorIn(["iad"]);
    await timeline(m.report, T0, [...ok(4), "error", "error", ...ok(4)]);
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 + 10 * MIN });
    expect(r).toMatchObject({
      firstCheckAt: T0,
      measuredFrom: T0,
      measuredTo: T0 + 10 * MIN,
      measuredMs: 10 * MIN,
      upMs: 8 * MIN,
      downMs: 2 * MIN,
      degradedMs: 0,
      noDataMs: 0,
      maintenanceMs: 0,
      upSlots: 8,
      downSlots: 2,
    });
    expect(uptimeOf(r!)).toBe(0.8);
    // At 99.9 %, 10 measured minutes allow 0.6 s: 2 minutes down overspend it 200 times.
    const b = timeBudget(r!, 0.999);
    expect(b.allowedMs).toBeCloseTo(600, 6);
    expect(b.usedMs).toBe(2 * MIN);
    expect(b.remaining).toBeCloseTo(-199, 6);
  });

  it("slots no probe reported are no data, neither up nor down", async () => {
    const m = await monitorIn(["iad"]);
    await timeline(m.report, T0, [...ok(3), null, null, null, ...ok(4)]);
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 + 10 * MIN });
    expect(r).toMatchObject({ measuredMs: 10 * MIN, upMs: 7 * MIN, downMs: 0, noDataMs: 3 * MIN, upSlots: 7 });
    expect(uptimeOf(r!)).toBe(1);
  });

  it("a monitor that never reported measured nothing and its uptime is no data, not 100 %", async () => {
    const m = await monitorIn(["iad"]);
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 });
    expect(r).toMatchObject({ firstCheckAt: null, measuredMs: 0, upMs: 0, noDataMs: 0 });
    expect(uptimeOf(r!)).toBeNull();
  });

  it("a maintenance window's time and slots are left out, its failures spending no budget", async () => {
    const m = await monitorIn(["iad"]);
    await timeline(m.report, T0, [...ok(2), "error", "error", "error", ...ok(5)]);
    await createMaintenance(t.db, m.ws, { title: "Upgrade", startsAt: T0 + 2 * MIN, endsAt: T0 + 5 * MIN, monitors: [m.id] }, "operator");
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 + 10 * MIN });
    expect(r).toMatchObject({ measuredMs: 10 * MIN, upMs: 7 * MIN, downMs: 0, maintenanceMs: 3 * MIN, upSlots: 7, maintenanceSlots: 3 });
    expect(timeBudget(r!, 0.999).remaining).toBe(1);
  });

  it("with three locations a slot is down only when at least half of them failed it", async () => {
    const m = await monitorIn(["iad", "fra", "syd"]);
    const slot = async (i: number, statuses: Status[]) => {
      for (const [at, s] of statuses.entries()) await m.report(T0 + i * MIN, s, at);
    };
    await slot(0, ["success", "success", "success"]);
    await slot(1, ["error", "success", "success"]); // one of three: up
    await slot(2, ["error", "error", "success"]); // two of three: down
    await slot(3, ["error", "degraded", "success"]); // two of three not fine, one error: degraded
    await slot(4, ["error"]); // only one location reported: it decides alone
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 + 5 * MIN });
    expect(r).toMatchObject({ upMs: 2 * MIN, downMs: 2 * MIN, degradedMs: MIN, upSlots: 2, downSlots: 2, degradedSlots: 1 });
    expect(uptimeOf(r!)).toBe(0.6);
  });

  it("a period ending in the future is measured up to now, the slot under way counting only its elapsed part", async () => {
    const m = await monitorIn(["iad"]);
    await timeline(m.report, T0, ok(3));
    const [r] = await measure(t.db, [m.id], { from: PERIOD, to: PERIOD + 30 * DAY, nowMs: T0 + 2 * MIN + 20_000 });
    expect(r).toMatchObject({ measuredTo: T0 + 2 * MIN + 20_000, measuredMs: 2 * MIN + 20_000, upMs: 2 * MIN + 20_000, upSlots: 3 });
  });

  it("a period starting after the first check counts from its start, and day buckets split time at midnight", async () => {
    const m = await monitorIn(["iad"]);
    const midnight = Date.UTC(2026, 10, 20);
    // 23:55 … 00:04: up until 00:02, down 00:02–00:04, then nothing.
    await timeline(m.report, midnight - 5 * MIN, [...ok(7), "error", "error"]);
    const from = midnight - 3 * MIN;
    const [r] = await measure(t.db, [m.id], { from, to: midnight + DAY, nowMs: midnight + 10 * MIN, bucket: "day" });
    expect(r).toMatchObject({ firstCheckAt: midnight - 5 * MIN, measuredFrom: from, measuredMs: 13 * MIN });
    expect(r).toMatchObject({ upMs: 5 * MIN, downMs: 2 * MIN, noDataMs: 6 * MIN, upSlots: 5, downSlots: 2 });
    expect(r!.buckets.map((b) => [b.start, b.measuredMs, b.upMs, b.downMs, b.noDataMs, b.upSlots])).toEqual([
      [midnight - DAY, 3 * MIN, 3 * MIN, 0, 0, 3],
      [midnight, 10 * MIN, 2 * MIN, 2 * MIN, 6 * MIN, 2],
    ]);
  });
});

describe("days as the status page reads them", () => {
  it("past days read once and today read fresh add up to the same figures as one measurement, a new result showing at once", async () => {
    const m = await monitorIn(["iad"]);
    const today = Date.UTC(2026, 10, 20);
    await timeline(m.report, today - DAY + 10 * MIN, [...ok(3), "error", ...ok(2)]);
    await timeline(m.report, today + 5 * MIN, [...ok(2), "error"]);
    const from = today - 2 * DAY;
    let now = today + 8 * MIN;
    const days = await measuredDays(t.db, [m.id], from, now);
    const [whole] = await measure(t.db, [m.id], { from, to: today + DAY, nowMs: now, bucket: "day" });
    expect(days.get(m.id)).toEqual(whole);
    expect(whole).toMatchObject({
      measuredFrom: today - DAY + 10 * MIN,
      upMs: 7 * MIN,
      downMs: 2 * MIN,
      noDataMs: DAY - 16 * MIN + 5 * MIN,
    });

    await m.report(today + 8 * MIN, "error");
    now = today + 9 * MIN;
    const later = (await measuredDays(t.db, [m.id], from, now)).get(m.id)!;
    expect(later.buckets.at(-1)).toMatchObject({ downMs: 2 * MIN, downSlots: 2, upSlots: 2 });
    expect(later).toEqual((await measure(t.db, [m.id], { from, to: today + DAY, nowMs: now, bucket: "day" }))[0]);
  });
});
