import { checkResult } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libsqlAnalytics } from "./index";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
  await t.db.$client.executeMultiple(`
    insert into workspace (id, name) values (1, 'w');
    insert into private_location (id, workspace_id, name, region, key_prefix, key_hash) values (1, 1, 'a', 'iad', 'p', 'h1'), (2, 1, 'b', 'ams', 'p', 'h2');
  `);
});
afterAll(async () => t?.close());

const H = 3_600_000;
const base = Date.UTC(2026, 10, 1);
let seq = 0;
const row = (locationId: number, cron: number, status: "success" | "degraded" | "error", latencyMs: number, evaluated = true) => ({
  id: `01J${String(seq++).padStart(23, "0")}`,
  workspaceId: 1,
  monitorId: 7,
  locationId,
  region: locationId === 1 ? "iad" : "ams",
  cronTimestamp: cron,
  startedAt: cron,
  status,
  latencyMs,
  evaluatedAt: evaluated ? cron : null,
});

describe("libSQL analytics", () => {
  it("reports uptime and nearest-rank latency percentiles per hour", async () => {
    const rows = [];
    for (let i = 1; i <= 100; i++) rows.push(row(1, base + i * 30_000, i <= 2 ? "error" : i <= 5 ? "degraded" : "success", i));
    rows.push(row(1, base + H + 1, "success", 500));
    await t.db.insert(checkResult).values(rows);
    const s = await libsqlAnalytics(t.db).series({ monitorId: 7, from: base, to: base + 2 * H, bucket: "hour" });
    expect(s).toEqual([
      { start: base, locationId: null, total: 100, success: 95, degraded: 3, error: 2, uptime: 0.98, p50: 50, p95: 95, p99: 99 },
      { start: base + H, locationId: null, total: 1, success: 1, degraded: 0, error: 0, uptime: 1, p50: 500, p95: 500, p99: 500 },
    ]);
  });

  it("splits by location when asked and buckets by day", async () => {
    await t.db.insert(checkResult).values([row(2, base + 10, "error", 9), row(2, base + 20, "success", 3)]);
    const a = libsqlAnalytics(t.db);
    expect(await a.series({ monitorId: 7, from: base, to: base + 24 * H, bucket: "day", locationId: 2 })).toEqual([
      { start: base, locationId: 2, total: 2, success: 1, degraded: 0, error: 1, uptime: 0.5, p50: 3, p95: 9, p99: 9 },
    ]);
    const day = await a.series({ monitorId: 7, from: base, to: base + 24 * H, bucket: "day" });
    expect(day).toHaveLength(1);
    expect(day[0]!.total).toBe(103);
  });

  it("retention deletes evaluated results older than the cutoff and keeps pending ones", async () => {
    await t.db.insert(checkResult).values([row(1, base - 10 * H, "success", 1), row(1, base - 9 * H, "error", 1, false)]);
    const gone = await libsqlAnalytics(t.db).deleteBefore(1, base);
    expect(gone).toBe(1);
    const left = await t.db.$client.execute(`select count(*) as n from check_result where cron_timestamp < ${base}`);
    expect(Number(left.rows[0]!.n)).toBe(1);
  });
});
