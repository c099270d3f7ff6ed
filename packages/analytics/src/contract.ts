// The assertions every analytics backend must pass, on the same known data (imported by one test file per backend).
import type { Db } from "@vigil/db-schema";
import { insertResults } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import type { Analytics } from "./types";

export const H = 3_600_000;
export const D = 24 * H;
export const BASE = Date.UTC(2026, 10, 1);

type Status = "success" | "degraded" | "error";
let seq = 0;
/** A check_result row; ids are ULID-shaped and unique across the file. */
export const result = (monitorId: number, locationId: number, cron: number, status: Status, latencyMs: number, evaluated = true) => ({
  id: `01J${String(seq++).padStart(23, "0")}`,
  workspaceId: 1,
  monitorId,
  locationId,
  region: locationId === 1 ? "iad" : "ams",
  cronTimestamp: cron,
  startedAt: cron,
  status,
  latencyMs,
  statusCode: status === "error" ? null : 200,
  errorMessage: status === "error" ? "connect ECONNREFUSED" : null,
  timings: { dns: 1, connect: 2, tls: 3, firstByte: Math.max(latencyMs - 6, 0) },
  evaluatedAt: evaluated ? cron : null,
});
export type ResultRow = ReturnType<typeof result>;

export async function seedWorkspace(db: Db) {
  await db.$client.executeMultiple(`
    insert into workspace (id, name) values (1, 'w');
    insert into private_location (id, workspace_id, name, region, key_prefix, key_hash) values (1, 1, 'a', 'iad', 'p', 'h1'), (2, 1, 'b', 'ams', 'p', 'h2');
  `);
}

export async function insertRows(db: Db, rows: ResultRow[]) {
  await insertResults(db, rows);
}

export interface Backend {
  analytics: () => Analytics;
  /** Stores results the way production does for this backend (libSQL, then the exporter for ClickHouse). */
  load: (rows: ResultRow[]) => Promise<void>;
}

/** 100 results in the first hour (latencies 1..100; 2 errors, 3 degraded), one in the second. */
function hourData(monitorId: number) {
  const rows: ResultRow[] = [];
  for (let i = 1; i <= 100; i++) rows.push(result(monitorId, 1, BASE + i * 30_000, i <= 2 ? "error" : i <= 5 ? "degraded" : "success", i));
  rows.push(result(monitorId, 1, BASE + H + 1, "success", 500));
  return rows;
}

export function analyticsContract(name: string, backend: Backend) {
  describe(`${name}: the analytics every page reads`, () => {
    it("reports uptime and nearest-rank latency percentiles per hour", async () => {
      await backend.load(hourData(7));
      const s = await backend.analytics().series({ monitorId: 7, from: BASE, to: BASE + 2 * H, bucket: "hour" });
      expect(s).toEqual([
        { start: BASE, locationId: null, total: 100, success: 95, degraded: 3, error: 2, uptime: 0.98, p50: 50, p95: 95, p99: 99 },
        { start: BASE + H, locationId: null, total: 1, success: 1, degraded: 0, error: 0, uptime: 1, p50: 500, p95: 500, p99: 500 },
      ]);
    });

    it("a range that starts mid-hour counts only the results inside it", async () => {
      await backend.load(hourData(17));
      // From 30 min in: results 60..100 of the first hour (41, all success), then the whole second hour.
      const s = await backend.analytics().series({ monitorId: 17, from: BASE + 30 * 60_000, to: BASE + 2 * H, bucket: "hour" });
      expect(s).toEqual([
        { start: BASE, locationId: null, total: 41, success: 41, degraded: 0, error: 0, uptime: 1, p50: 80, p95: 98, p99: 100 },
        { start: BASE + H, locationId: null, total: 1, success: 1, degraded: 0, error: 0, uptime: 1, p50: 500, p95: 500, p99: 500 },
      ]);
      // Ending mid-hour too, inside one hour: only 60..89 (30 results).
      const inner = await backend.analytics().series({ monitorId: 17, from: BASE + 30 * 60_000, to: BASE + 45 * 60_000, bucket: "hour" });
      expect(inner).toEqual([
        { start: BASE, locationId: null, total: 30, success: 30, degraded: 0, error: 0, uptime: 1, p50: 74, p95: 88, p99: 89 },
      ]);
    });

    it("splits by location when asked and buckets by day", async () => {
      await backend.load([...hourData(27), result(27, 2, BASE + 10, "error", 9), result(27, 2, BASE + 20, "success", 3)]);
      const a = backend.analytics();
      expect(await a.series({ monitorId: 27, from: BASE, to: BASE + D, bucket: "day", locationId: 2 })).toEqual([
        { start: BASE, locationId: 2, total: 2, success: 1, degraded: 0, error: 1, uptime: 0.5, p50: 3, p95: 9, p99: 9 },
      ]);
      expect(await a.series({ monitorId: 27, from: BASE, to: BASE + D, bucket: "day" })).toEqual([
        { start: BASE, locationId: null, total: 103, success: 97, degraded: 3, error: 3, uptime: 100 / 103, p50: 50, p95: 96, p99: 100 },
      ]);
    });

    it("a page of monitors gets every monitor's hourly series in one call, as each alone", async () => {
      const rows = [...hourData(57), result(57, 2, BASE + 2 * H + 5, "error", 70)];
      for (let i = 0; i < 30; i++) rows.push(result(58, 2, BASE + 3 * H + i * 60_000, i % 10 === 0 ? "degraded" : "success", 200 - i));
      await backend.load(rows);
      const a = backend.analytics();
      const q = { from: BASE + 30 * 60_000, to: BASE + 4 * H, bucket: "hour" as const };
      const all = await a.seriesOfMonitors({ ...q, monitorIds: [58, 59, 57] });
      const alone = async (monitorId: number) => (await a.series({ ...q, monitorId })).map((p) => ({ ...p, monitorId }));
      expect(all).toEqual([...(await alone(57)), ...(await alone(58))]);
      expect(all.map((p) => [p.monitorId, p.start, p.total, p.p50])).toEqual([
        [57, BASE, 41, 80],
        [57, BASE + H, 1, 500],
        [57, BASE + 2 * H, 1, 70],
        [58, BASE + 3 * H, 30, 185],
      ]);
      expect(await a.seriesOfMonitors({ ...q, monitorIds: [] })).toEqual([]);
    });

    it("a result that arrives late, for an hour already charted, counts in its hour", async () => {
      await backend.load(hourData(67));
      const a = backend.analytics();
      const q = { monitorId: 67, from: BASE - D, to: BASE + D, bucket: "hour" as const };
      expect((await a.series(q))[0]).toMatchObject({ start: BASE, total: 100, error: 2, p99: 99 });
      await backend.load([result(67, 2, BASE + 15, "error", 1000), result(67, 1, BASE + 45_000, "success", 999)]);
      expect((await a.series(q))[0]).toMatchObject({ start: BASE, total: 102, error: 3, p50: 51, p99: 999 });
      expect(await a.series({ ...q, bucket: "day", locationId: 2 })).toEqual([
        { start: BASE, locationId: 2, total: 1, success: 0, degraded: 0, error: 1, uptime: 0, p50: 1000, p95: 1000, p99: 1000 },
      ]);
      expect(await a.dailyUptime({ monitorIds: [67], from: BASE - D, to: BASE + D })).toEqual([
        { monitorId: 67, day: BASE, total: 103, success: 97, degraded: 3, error: 3, uptime: 100 / 103 },
      ]);
    });

    it("reports per-day uptime of several monitors at once, only days with results", async () => {
      const start = BASE + 40 * D;
      const rows: ResultRow[] = [];
      // Monitor 8: day 0 → 3 success, 1 degraded, 1 error; day 2 → 2 success (two locations). Monitor 9: day 1 → 1 error.
      for (const [i, s] of (["success", "success", "success", "degraded", "error"] as const).entries())
        rows.push(result(8, 1, start + i * 60_000, s, 10));
      rows.push(result(8, 1, start + 2 * D, "success", 10), result(8, 2, start + 2 * D + 5, "success", 10));
      rows.push(result(9, 1, start + D + 7, "error", 10));
      rows.push(result(9, 1, start + 3 * D, "error", 10)); // outside the range
      await backend.load(rows);
      const a = backend.analytics();
      expect(await a.dailyUptime({ monitorIds: [8, 9, 10], from: start, to: start + 3 * D })).toEqual([
        { monitorId: 8, day: start, total: 5, success: 3, degraded: 1, error: 1, uptime: 0.8 },
        { monitorId: 8, day: start + 2 * D, total: 2, success: 2, degraded: 0, error: 0, uptime: 1 },
        { monitorId: 9, day: start + D, total: 1, success: 0, degraded: 0, error: 1, uptime: 0 },
      ]);
      // Mid-day edges: from 00:02 on day 0 (the degraded and the error result) to just past day 2's first result.
      expect(await a.dailyUptime({ monitorIds: [8, 9], from: start + 3 * 60_000, to: start + 2 * D + 1 })).toEqual([
        { monitorId: 8, day: start, total: 2, success: 0, degraded: 1, error: 1, uptime: 0.5 },
        { monitorId: 8, day: start + 2 * D, total: 1, success: 1, degraded: 0, error: 0, uptime: 1 },
        { monitorId: 9, day: start + D, total: 1, success: 0, degraded: 0, error: 1, uptime: 0 },
      ]);
      expect(await a.dailyUptime({ monitorIds: [], from: start, to: start + D })).toEqual([]);
    });

    it("a status page with hundreds of monitors gets every monitor's bars in one call", async () => {
      const day = BASE + 50 * D;
      const rows: ResultRow[] = [];
      for (let m = 1000; m < 1250; m++)
        rows.push(result(m, 1, day + m, m % 5 === 0 ? "error" : "success", 10), result(m, 2, day + D + m, "success", 10));
      await backend.load(rows);
      const ids = Array.from({ length: 250 }, (_, i) => 1249 - i); // any order in, ordered out
      const bars = await backend.analytics().dailyUptime({ monitorIds: ids, from: day, to: day + 2 * D });
      expect(bars).toHaveLength(500);
      expect(bars.slice(0, 2)).toEqual([
        { monitorId: 1000, day, total: 1, success: 0, degraded: 0, error: 1, uptime: 0 },
        { monitorId: 1000, day: day + D, total: 1, success: 1, degraded: 0, error: 0, uptime: 1 },
      ]);
      expect(bars.at(-1)).toEqual({ monitorId: 1249, day: day + D, total: 1, success: 1, degraded: 0, error: 0, uptime: 1 });
      expect(bars.filter((b) => b.error === 1)).toHaveLength(50);
    });

    it("results older than the workspace's retention disappear from series and daily bars", async () => {
      const old = BASE - 100 * D;
      await backend.load([
        result(37, 1, old, "success", 1),
        result(37, 1, old + 2 * H, "error", 1),
        result(37, 1, old + 3 * D, "success", 4),
      ]);
      const a = backend.analytics();
      const gone = await a.deleteBefore(1, old + D);
      expect(gone).toBe(2);
      expect(await a.series({ monitorId: 37, from: old, to: old + 4 * D, bucket: "hour" })).toEqual([
        { start: old + 3 * D, locationId: null, total: 1, success: 1, degraded: 0, error: 0, uptime: 1, p50: 4, p95: 4, p99: 4 },
      ]);
      expect(await a.dailyUptime({ monitorIds: [37], from: old, to: old + 4 * D })).toEqual([
        { monitorId: 37, day: old + 3 * D, total: 1, success: 1, degraded: 0, error: 0, uptime: 1 },
      ]);
    });
  });
}
