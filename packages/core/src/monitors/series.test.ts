import { insertResults } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import { createMaintenance, createMonitor, createPrivateLocation, markSilentLocations, touchLocation } from "../index";
import { unlimitedWorkspace, useTestDatabase } from "../testing";
import { type BucketCell, chartWindow, monitorChart, offlineLocations, shapeSeries } from "./series";

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 7);
const S30 = 30_000;

/** One check of location `location` in the slot at `t`. */
const cell = (t: number, location: number, status: "success" | "degraded" | "error", ms: number): BucketCell => ({
  t,
  location,
  checks: 1,
  degraded: status === "degraded" ? 1 : 0,
  failed: status === "error" ? 1 : 0,
  p50: ms,
  p95: ms,
});

describe("the chart's window", () => {
  it("a 10-minute-old monitor's default day view shows its 10 minutes, each check a point", () => {
    const first = NOW - 10 * MIN;
    const w = chartWindow({ rangeMs: D, now: NOW, intervalMs: S30, firstCheckAt: first, lastCheckAt: NOW - 7 });
    expect(w.checkResolution).toBe(true);
    expect(w.bucketMs).toBe(S30);
    expect(w.from).toBeLessThanOrEqual(first);
    expect(w.from).toBeGreaterThan(first - S30);
    // Buckets follow the slots' phase: the latest slot starts a bucket.
    expect((NOW - 7 - w.from) % S30).toBe(0);
  });

  it("a monitor with a single result still gets an axis a few slots wide", () => {
    const w = chartWindow({ rangeMs: D, now: NOW, intervalMs: MIN, firstCheckAt: NOW - 5_000 });
    expect(NOW - w.from).toBeGreaterThanOrEqual(4 * MIN);
  });

  it("a month of 30 s checks is aggregated into at most 300 even buckets; a day of 5 min checks stays check by check", () => {
    const month = chartWindow({ rangeMs: 30 * D, now: NOW, intervalMs: S30, firstCheckAt: NOW - 90 * D });
    expect(month.checkResolution).toBe(false);
    expect(month.bucketMs).toBe(3 * H);
    expect((NOW - month.from) / month.bucketMs).toBeLessThanOrEqual(301);
    expect(month.from % month.bucketMs).toBe(0);
    const day = chartWindow({ rangeMs: D, now: NOW, intervalMs: 5 * MIN, firstCheckAt: NOW - 9 * D });
    expect(day).toMatchObject({ checkResolution: true, bucketMs: 5 * MIN });
    expect(NOW - day.from).toBeGreaterThanOrEqual(D);
  });
});

describe("series shaping", () => {
  const w = chartWindow({ rangeMs: 10 * MIN, now: NOW, intervalMs: MIN, firstCheckAt: NOW - 10 * MIN, lastCheckAt: NOW - 7 - MIN + 7 });
  const slots = Array.from({ length: (NOW - w.from) / MIN + 1 }, (_, i) => w.from + i * MIN).filter((t) => t < w.to);

  it("failed checks never become latency points: their slots break the line under a failure band", () => {
    const cells = slots.map((t, i) => cell(t, 7, i >= 3 && i < 6 ? "error" : "success", i >= 3 && i < 6 ? 0 : 120 + i));
    const { rows, bands } = shapeSeries(w, cells, [7], { now: NOW, intervalMs: MIN });
    expect(rows.map((r) => r.latency_0)).toEqual(slots.map((_, i) => (i >= 3 && i < 6 ? null : 120 + i)));
    expect(rows.slice(3, 6).map((r) => r.failed_0)).toEqual([1, 1, 1]);
    // Centred on the failed checks' points: from half a slot before the first to half a slot after the last.
    expect(bands).toEqual([{ kind: "failed", from: slots[3]! - MIN / 2, to: slots[5]! + MIN / 2 }]);
    // No zero anywhere: an outage never reads as the fastest period.
    expect(rows.some((r) => r.latency_0 === 0)).toBe(false);
  });

  it("a slot without any result is a 'no data' gap, not a line joined across it; the slot still running is not", () => {
    const missing = new Set([4, 5, slots.length - 1]);
    const cells = slots.flatMap((t, i) => (missing.has(i) ? [] : [cell(t, 7, "success", 100)]));
    const { rows, bands } = shapeSeries(w, cells, [7], { now: NOW, intervalMs: MIN });
    expect(rows).toHaveLength(slots.length);
    expect(rows[4]!.latency_0).toBeNull();
    expect(rows[5]!.latency_0).toBeNull();
    expect(rows.at(-1)!.latency_0).toBeNull();
    expect(bands).toEqual([{ kind: "no-data", from: slots[4]! - MIN / 2, to: slots[5]! + MIN / 2 }]);
  });

  it("degraded checks keep their latency and show a degraded band; one location failing marks the slot", () => {
    const cells = [cell(slots[1]!, 7, "degraded", 900), cell(slots[2]!, 7, "success", 100), cell(slots[2]!, 8, "error", 3)];
    const { rows, bands } = shapeSeries(w, cells, [7, 8], { now: NOW, intervalMs: MIN });
    expect(rows[1]!.latency_0).toBe(900);
    expect(rows[2]).toMatchObject({ latency_0: 100, latency_1: null, failed_1: 1 });
    expect(bands.filter((b) => b.kind !== "no-data")).toEqual([
      { kind: "degraded", from: slots[1]! - MIN / 2, to: slots[1]! + MIN / 2 },
      { kind: "failed", from: slots[2]! - MIN / 2, to: slots[2]! + MIN / 2 },
    ]);
  });

  it("a bucket where some checks failed and others did not plots the others' percentiles", () => {
    const agg = chartWindow({ rangeMs: 30 * D, now: NOW, intervalMs: S30, firstCheckAt: NOW - 40 * D });
    const t = agg.from + agg.bucketMs;
    const mixed: BucketCell = { t, location: 7, checks: 360, degraded: 0, failed: 20, p50: 140, p95: 300 };
    const allFailed: BucketCell = { ...mixed, t: t + agg.bucketMs, failed: 360, p50: null, p95: null };
    const { rows, bands } = shapeSeries(agg, [mixed, allFailed], [7], { now: NOW, intervalMs: S30 });
    // Drawn at the bucket's middle, its band spanning the bucket.
    expect(rows[1]).toMatchObject({ t: t + agg.bucketMs / 2, p50_0: 140, p95_0: 300, failed_0: 20, checks_0: 360 });
    expect(rows[2]).toMatchObject({ p50_0: null, p95_0: null, failed_0: 360 });
    expect(bands.filter((b) => b.kind === "failed")).toEqual([{ kind: "failed", from: t, to: t + 2 * agg.bucketMs }]);
  });

  it("the slots before a young monitor's first check are not 'no data': nothing was measured then", () => {
    const young = chartWindow({ rangeMs: D, now: NOW, intervalMs: S30, firstCheckAt: NOW - 40_000, lastCheckAt: NOW - 10_000 });
    expect(NOW - young.from).toBeGreaterThanOrEqual(4 * S30);
    const cells = [cell(NOW - 40_000, 7, "success", 90), cell(NOW - 10_000, 7, "success", 95)];
    const { rows, bands } = shapeSeries(young, cells, [7], { now: NOW, intervalMs: S30 });
    expect(rows.filter((r) => r.latency_0 !== null)).toHaveLength(2);
    expect(bands).toEqual([]);
  });

  it("a maintenance window is a band clipped to the chart", () => {
    const { bands } = shapeSeries(w, [], [7], { now: NOW, intervalMs: MIN, maintenance: [{ startsAt: w.from - H, endsAt: slots[2]! }] });
    expect(bands.find((b) => b.kind === "maintenance")).toEqual({ kind: "maintenance", from: w.from, to: slots[2] });
  });
});

describe("a monitor's chart from stored results", () => {
  let t: Parameters<Parameters<typeof useTestDatabase>[0]>[0];
  useTestDatabase((db) => {
    t = db;
  });

  it("an outage shows as failures counted and a band, latency only from successful checks, maintenance as a band", async () => {
    const ws = await unlimitedWorkspace(t.db);
    const { location } = await createPrivateLocation(t.db, ws, { name: "fra-1", region: "fra" }, "operator");
    const mon = await createMonitor(
      t.db,
      ws,
      { name: "Shop", kind: "http", frequency: "30s", regions: ["fra"], request: { url: "https://shop.example.com/" } },
      "operator",
    );
    const now = Date.now();
    const start = Math.floor((now - 20 * MIN) / S30) * S30;
    // 40 slots: 10 fine, 6 failed (0 ms: the refused connection), 4 missing, the rest fine; latency 200 + i.
    const rows = [];
    for (let i = 0; i < 40; i++) {
      if (i >= 16 && i < 20) continue;
      const failed = i >= 10 && i < 16;
      rows.push({
        workspaceId: ws,
        monitorId: mon.id,
        locationId: location.id,
        cronTimestamp: start + i * S30,
        status: failed ? ("error" as const) : ("success" as const),
        latencyMs: failed ? 0 : 200 + i,
        evaluatedAt: start + i * S30,
      });
    }
    await insertResults(t.db, rows);
    await createMaintenance(
      t.db,
      ws,
      { title: "Deploy", startsAt: start + 30 * S30, endsAt: start + 33 * S30, monitors: [mon.id] },
      "operator",
    );
    const chart = await monitorChart(t.db, ws, mon.id, [{ locationId: location.id, name: "fra-1" }], D, now);
    expect(chart.checkResolution).toBe(true);
    expect(chart.from).toBe(start);
    expect(chart.summary).toMatchObject({ checks: 36, failed: 6, degraded: 0, noDataMs: 4 * S30 });
    // Median of the 30 successful latencies (200..209 and 220..239): nearest rank 15 is 224.
    expect(chart.summary.p50).toBe(224);
    const plotted = chart.rows.flatMap((r) => (r.latency_0 === null || r.latency_0 === undefined ? [] : [r.latency_0]));
    expect(plotted).toHaveLength(30);
    expect(Math.min(...plotted)).toBe(200);
    expect(chart.bands).toEqual(
      expect.arrayContaining([
        { kind: "failed", from: start + 10 * S30 - S30 / 2, to: start + 16 * S30 - S30 / 2 },
        { kind: "no-data", from: start + 16 * S30 - S30 / 2, to: start + 20 * S30 - S30 / 2 },
        { kind: "maintenance", from: start + 30 * S30, to: start + 33 * S30 },
      ]),
    );
    expect(chart.locations).toEqual([{ locationId: location.id, name: "fra-1", checks: 36, failed: 6, degraded: 0 }]);

    // Over a month the same results are aggregated: failures counted in their bucket, p50 of the successful ones.
    const month = await monitorChart(t.db, ws, mon.id, [{ locationId: location.id, name: "fra-1" }], 30 * D, now + 20 * D);
    expect(month.checkResolution).toBe(false);
    const withResults = month.rows.filter((r) => Number(r.checks_0) > 0);
    expect(withResults.reduce((n, r) => n + Number(r.failed_0), 0)).toBe(6);
    expect(withResults.every((r) => r.p50_0 === null || Number(r.p50_0) >= 200)).toBe(true);
  });

  it("a location whose probe went silent is listed offline with the time it last reported", async () => {
    const ws = await unlimitedWorkspace(t.db);
    const { location: a } = await createPrivateLocation(t.db, ws, { name: "rack-a", region: "fra" }, "operator");
    const { location: b } = await createPrivateLocation(t.db, ws, { name: "rack-b", region: "iad" }, "operator");
    const now = Date.now();
    await touchLocation(t.db, a.id, now - 10 * MIN);
    await touchLocation(t.db, b.id, now);
    await markSilentLocations(t.db, now);
    expect(await offlineLocations(t.db, ws, ["fra", "iad"])).toEqual([
      { locationId: a.id, name: "rack-a", region: "fra", lastSeenAt: now - 10 * MIN },
    ]);
    expect(await offlineLocations(t.db, ws, ["iad"])).toEqual([]);
  });
});
