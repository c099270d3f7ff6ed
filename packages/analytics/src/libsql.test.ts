import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsContract, BASE, D, H, insertRows, result, seedWorkspace } from "./contract";
import { libsqlAnalytics } from "./libsql";

let t: TestDatabase;
/** A second database for the contract without the rollup step (the contract's monitor ids repeat). */
let unsummed: TestDatabase;
beforeAll(async () => {
  [t, unsummed] = await Promise.all([startTestDatabase(), startTestDatabase()]);
  await Promise.all([seedWorkspace(t.db), seedWorkspace(unsummed.db)]);
});
afterAll(async () => Promise.all([t?.close(), unsummed?.close()]));

// Charts read the hourly rollup plus what it has not taken in yet: exact whether the rollup step has run or not.
analyticsContract("libSQL, results summed by the hourly rollup", {
  analytics: () => libsqlAnalytics(t.db),
  load: async (rows) => {
    await insertRows(t.db, rows);
    await libsqlAnalytics(t.db).rollup();
  },
});
// Everything is behind the rollup here; `lateScan: 0` finds it through each monitor's index, not in rowid order.
analyticsContract("libSQL, results not yet summed", {
  analytics: () => libsqlAnalytics(unsummed.db, { lateScan: 0 }),
  load: (rows) => insertRows(unsummed.db, rows),
});

const hourRows = async (db: TestDatabase, monitorId: number) =>
  (
    await db.db.$client.execute({ sql: "select hour, total from check_result_hour where monitor_id = ? order by hour", args: [monitorId] })
  ).rows.map((r) => [Number(r.hour), Number(r.total)]);

describe("libSQL retention", () => {
  it("keeps results evaluation has not seen yet", async () => {
    await insertRows(t.db, [result(47, 1, BASE - 400 * D, "success", 1), result(47, 1, BASE - 399 * D, "error", 1, false)]);
    expect(await libsqlAnalytics(t.db).deleteBefore(1, BASE - 300 * D)).toBe(1);
    const left = await t.db.$client.execute("select count(*) as n from check_result where monitor_id = 47");
    expect(Number(left.rows[0]!.n)).toBe(1);
  });

  it("takes deleted results out of the hourly sums, and keeps the hour the cutoff falls in for what is left", async () => {
    const old = BASE - 200 * D;
    const a = libsqlAnalytics(t.db);
    await insertRows(t.db, [
      result(48, 1, old, "success", 5),
      result(48, 1, old + 10 * 60_000, "error", 6),
      result(48, 1, old + 50 * 60_000, "success", 7),
      result(48, 1, old + 2 * H, "success", 8, false),
      result(48, 1, old + 5 * H, "success", 9),
    ]);
    await a.rollup();
    expect(await hourRows(t, 48)).toEqual([
      [old, 3],
      [old + 2 * H, 1],
      [old + 5 * H, 1],
    ]);
    // Cutoff at 00:30 of the first hour; the 02:00 result is pending, so it stays.
    expect(await a.deleteBefore(1, old + 30 * 60_000)).toBe(2);
    expect(await hourRows(t, 48)).toEqual([
      [old, 1],
      [old + 2 * H, 1],
      [old + 5 * H, 1],
    ]);
    expect((await a.series({ monitorId: 48, from: old, to: old + D, bucket: "day" }))[0]).toMatchObject({ total: 3, p50: 8 });
  });
});

describe("libSQL retention before the rollup", () => {
  it("a monitor whose hours are not summed yet keeps exact counts", async () => {
    const old = BASE - 250 * D;
    const a = libsqlAnalytics(t.db);
    await insertRows(t.db, [result(51, 1, old + 10 * 60_000, "error", 6), result(51, 1, old + 50 * 60_000, "success", 7)]);
    // No rollup has run since: 51's hours are not summed.
    expect(await a.deleteBefore(1, old + 30 * 60_000)).toBe(1);
    expect(await hourRows(t, 51)).toEqual([]);
    expect(await a.series({ monitorId: 51, from: old, to: old + D, bucket: "day" })).toMatchObject([{ total: 1, p50: 7 }]);
  });

  it("the newest result deleted, the next one stored still counts in a summed hour", async () => {
    const old = BASE - 260 * D;
    const a = libsqlAnalytics(t.db);
    await insertRows(t.db, [result(52, 1, old, "success", 5), result(52, 1, old + H, "success", 6)]);
    await a.rollup();
    // Both go, the newest result among them: the next result stored takes its rowid again.
    expect(await a.deleteBefore(1, old + 2 * H)).toBe(2);
    await insertRows(t.db, [result(52, 1, old + 5 * 60_000, "error", 9)]);
    expect(await a.series({ monitorId: 52, from: old - D, to: old + D, bucket: "day" })).toMatchObject([{ total: 1, error: 1, p50: 9 }]);
  });
});

describe("libSQL hourly rollup", () => {
  it("sums completed hours only, a few monitors and hours per step, and says when it is behind", async () => {
    const fresh = await startTestDatabase();
    try {
      await seedWorkspace(fresh.db);
      const a = libsqlAnalytics(fresh.db);
      const rows = Array.from({ length: 7 }, (_, i) => result(49, 1, BASE + i * H, "success", 10 + i));
      await insertRows(fresh.db, [...rows, result(50, 2, BASE + 3 * H, "error", 99)]);
      const now = BASE + 6 * H + 30 * 60_000; // the 7th hour is not over
      expect(await a.rollup({ monitors: 1, span: 2 * H, maxBatches: 2, now })).toMatchObject({ behind: true });
      expect(await hourRows(fresh, 49)).toEqual([
        [BASE, 1],
        [BASE + H, 1],
      ]);
      // The most behind monitor goes next: 50 before 49's next hours.
      expect(await hourRows(fresh, 50)).toEqual([[BASE + 3 * H, 1]]);
      expect(await a.rollup({ monitors: 1, span: 2 * H, now })).toMatchObject({ behind: false });
      expect(await hourRows(fresh, 49)).toHaveLength(6);
      // Summed or not, every result counts.
      expect(await a.series({ monitorId: 49, from: BASE, to: BASE + D, bucket: "day" })).toEqual([
        { start: BASE, locationId: null, total: 7, success: 7, degraded: 0, error: 0, uptime: 1, p50: 13, p95: 16, p99: 16 },
      ]);
      expect(await a.dailyUptime({ monitorIds: [49, 50], from: BASE, to: BASE + D })).toEqual([
        { monitorId: 49, day: BASE, total: 7, success: 7, degraded: 0, error: 0, uptime: 1 },
        { monitorId: 50, day: BASE, total: 1, success: 0, degraded: 0, error: 1, uptime: 0 },
      ]);
      // A late result in a summed hour: found in rowid order, or through the monitor's index when far behind.
      await insertRows(fresh.db, [result(49, 2, BASE + 5, "error", 1)]);
      for (const lateScan of [20_000, 0]) {
        const s = await libsqlAnalytics(fresh.db, { lateScan }).series({ monitorId: 49, from: BASE, to: BASE + D, bucket: "day" });
        expect(s).toMatchObject([{ total: 8, error: 1, p50: 12 }]);
      }
    } finally {
      await fresh.close();
    }
  });
});
