import { createHash } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { analyticsExport, checkResultRow, type Db } from "@vigil/db-schema";
import { and, eq, lt, lte } from "drizzle-orm";
import { toAnalyticsError } from "./errors";
import { evaluated, NOT_NEWEST } from "./libsql";
import { type Analytics, BUCKET_MS, type DailyUptime, type MonitorSeriesPoint, type MonitorsSeriesQuery, uptimeOf } from "./types";

/** A check result as copied from libSQL's check_result (times in ms). */
export interface ExportedResult {
  id: string;
  workspaceId: number;
  monitorId: number;
  locationId: number;
  region: string;
  cronTimestamp: number;
  startedAt: number;
  status: "success" | "degraded" | "error";
  latencyMs: number;
  statusCode: number | null;
  errorMessage: string | null;
  attempts: number;
  timings: Record<string, number> | null;
}

export interface ClickHouseAnalytics extends Analytics {
  readonly backend: "clickhouse";
  /**
   * Writes results as one block. The block is identified by its ids: sending the same results again (a
   * retry after a lost acknowledgement) is dropped whole, in the raw table and in the hourly/daily views.
   */
  insertResults(results: ExportedResult[]): Promise<void>;
  ping(): Promise<void>;
}

export interface ClickHouseAnalyticsOptions {
  client: ClickHouseClient;
  /** The libSQL database: retention trims its check_result too, once rows are safely exported. */
  db: Db;
  database: string;
  /** For messages only: where the store is (host:port, never credentials). */
  where?: string;
}

/** The condition selecting raw results in `raw`'s ranges, its bounds added to `params` as rf<i> / rt<i>. */
function rawRanges(raw: [number, number][], params: Record<string, unknown>): string {
  return raw
    .map(([a, b], i) => {
      params[`rf${i}`] = a;
      params[`rt${i}`] = b;
      return `(cron_timestamp >= fromUnixTimestamp64Milli({rf${i}:Int64}, 'UTC') AND cron_timestamp < fromUnixTimestamp64Milli({rt${i}:Int64}, 'UTC'))`;
    })
    .join(" OR ");
}

/** Raw rows serve buckets that only partly lie inside [from, to); whole buckets come from the views. */
function splitRange(from: number, to: number, size: number) {
  const up = Math.ceil(from / size) * size;
  const down = Math.floor(to / size) * size;
  if (up >= down) return { raw: [[from, to]] as [number, number][], whole: null };
  const raw: [number, number][] = [];
  if (from < up) raw.push([from, up]);
  if (down < to) raw.push([down, to]);
  return { raw, whole: [up, down] as [number, number] };
}

const n = (v: unknown) => Number(v);
const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function clickhouseAnalytics(opts: ClickHouseAnalyticsOptions): ClickHouseAnalytics {
  const { client, db, database } = opts;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database))
    throw new Error(`ANALYTICS_DATABASE: "${database}" must be letters, digits or underscores`);
  const where = opts.where ?? "the configured address";
  const t = (name: string) => `${database}.${name}`;

  async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    try {
      // Compact rows (a header, then arrays) format and parse about twice as fast as one object per row.
      const rs = await client.query({ query, query_params: params, format: "JSONCompactEachRowWithNames" });
      const [names = [], ...data] = await rs.json<unknown[]>();
      return data.map((values) => Object.fromEntries((names as string[]).map((name, i) => [name, values[i]])) as T);
    } catch (err) {
      throw toAnalyticsError(err, where);
    }
  }

  async function command(query: string, params: Record<string, unknown> = {}) {
    try {
      await client.command({ query, query_params: params });
    } catch (err) {
      throw toAnalyticsError(err, where);
    }
  }

  // Nearest rank (the value at rank ceil(p·n), as the libSQL backend) from an exact histogram (keys sorted).
  const rankFromHistogram = (p: number) => `h.1[arrayFirstIndex(c -> c >= greatest(1, ceil(${p} * arraySum(h.2))), arrayCumSum(h.2))]`;
  const rankFromSorted = (p: number) => `sorted[toUInt64(greatest(1, ceil(${p} * length(sorted))))]`;

  async function seriesOf(q: MonitorsSeriesQuery & { locationId?: number }): Promise<MonitorSeriesPoint[]> {
    if (q.monitorIds.length === 0) return [];
    const size = BUCKET_MS[q.bucket];
    const { raw, whole } = splitRange(q.from, q.to, size);
    const byLocation = q.locationId !== undefined;
    const params: Record<string, unknown> = { monitors: q.monitorIds, location: q.locationId ?? 0 };
    const locFilter = byLocation ? "AND location_id = {location:UInt32}" : "";
    const parts: string[] = [];
    if (raw.length > 0) {
      const ranges = rawRanges(raw, params);
      parts.push(`SELECT monitor_id, start, total, success, degraded, error, ${rankFromSorted(0.5)} AS p50, ${rankFromSorted(0.95)} AS p95, ${rankFromSorted(0.99)} AS p99
        FROM (
          SELECT monitor_id, intDiv(toUnixTimestamp64Milli(cron_timestamp), ${size}) * ${size} AS start, count() AS total,
            countIf(status = 'success') AS success, countIf(status = 'degraded') AS degraded, countIf(status = 'error') AS error,
            arraySort(groupArray(latency_ms)) AS sorted
          FROM ${t("check_results")} FINAL
          WHERE monitor_id IN {monitors:Array(UInt32)} ${locFilter} AND (${ranges})
          GROUP BY monitor_id, start)`);
    }
    if (whole) {
      params.wf = whole[0];
      params.wt = whole[1];
      const view = q.bucket === "hour" ? "check_results_hourly" : "check_results_daily";
      parts.push(`SELECT monitor_id, start, total, success, degraded, error, ${rankFromHistogram(0.5)} AS p50, ${rankFromHistogram(0.95)} AS p95, ${rankFromHistogram(0.99)} AS p99
        FROM (
          SELECT monitor_id, toInt64(toUnixTimestamp(bucket)) * 1000 AS start, sum(total) AS total, sum(success) AS success,
            sum(degraded) AS degraded, sum(error) AS error, sumMapMerge(latency) AS h
          FROM ${t(view)}
          WHERE monitor_id IN {monitors:Array(UInt32)} ${locFilter}
            AND bucket >= toDateTime(intDiv({wf:Int64}, 1000), 'UTC') AND bucket < toDateTime(intDiv({wt:Int64}, 1000), 'UTC')
          GROUP BY monitor_id, bucket)`);
    }
    type Raw = Record<"monitor_id" | "start" | "total" | "success" | "degraded" | "error" | "p50" | "p95" | "p99", string | number | null>;
    const got = await rows<Raw>(`SELECT * FROM (${parts.join(" UNION ALL ")}) ORDER BY monitor_id, start`, params);
    return got.map((r) => ({
      monitorId: n(r.monitor_id),
      start: n(r.start),
      locationId: byLocation ? (q.locationId as number) : null,
      total: n(r.total),
      success: n(r.success),
      degraded: n(r.degraded),
      error: n(r.error),
      uptime: uptimeOf(n(r.total), n(r.error)),
      p50: nOrNull(r.p50),
      p95: nOrNull(r.p95),
      p99: nOrNull(r.p99),
    }));
  }

  async function dailyUptime(q: { monitorIds: number[]; from: number; to: number }): Promise<DailyUptime[]> {
    if (q.monitorIds.length === 0) return [];
    const size = BUCKET_MS.day;
    const { raw, whole } = splitRange(q.from, q.to, size);
    const params: Record<string, unknown> = { monitors: q.monitorIds };
    const parts: string[] = [];
    if (raw.length > 0) {
      const ranges = rawRanges(raw, params);
      parts.push(`SELECT monitor_id, intDiv(toUnixTimestamp64Milli(cron_timestamp), ${size}) * ${size} AS day, count() AS total,
          countIf(status = 'success') AS success, countIf(status = 'degraded') AS degraded, countIf(status = 'error') AS error
        FROM ${t("check_results")} FINAL
        WHERE monitor_id IN {monitors:Array(UInt32)} AND (${ranges})
        GROUP BY monitor_id, day`);
    }
    if (whole) {
      params.wf = whole[0];
      params.wt = whole[1];
      parts.push(`SELECT monitor_id, toInt64(toUnixTimestamp(bucket)) * 1000 AS day, sum(total) AS total, sum(success) AS success,
          sum(degraded) AS degraded, sum(error) AS error
        FROM ${t("check_results_daily")}
        WHERE monitor_id IN {monitors:Array(UInt32)}
          AND bucket >= toDateTime(intDiv({wf:Int64}, 1000), 'UTC') AND bucket < toDateTime(intDiv({wt:Int64}, 1000), 'UTC')
        GROUP BY monitor_id, bucket`);
    }
    type Raw = Record<"monitor_id" | "day" | "total" | "success" | "degraded" | "error", string | number>;
    const got = await rows<Raw>(`SELECT * FROM (${parts.join(" UNION ALL ")}) ORDER BY monitor_id, day`, params);
    return got.map((r) => ({
      monitorId: n(r.monitor_id),
      day: n(r.day),
      total: n(r.total),
      success: n(r.success),
      degraded: n(r.degraded),
      error: n(r.error),
      uptime: uptimeOf(n(r.total), n(r.error)),
    }));
  }

  return {
    backend: "clickhouse",
    async series({ monitorId, ...q }) {
      return (await seriesOf({ ...q, monitorIds: [monitorId] })).map(({ monitorId: _, ...p }) => p);
    },
    seriesOfMonitors: seriesOf,
    dailyUptime,

    /**
     * Retention by lightweight DELETE (rows vanish from reads at once, space is reclaimed by merges): raw
     * results before the cutoff, and view buckets that lie wholly before it. A workspace's `data-retention`
     * can change at any time, so a TTL fixed at insert would keep the old promise; the hourly retention job
     * applies the current one. libSQL's copy of the exported, evaluated rows goes too.
     */
    async deleteBefore(workspaceId, cutoff) {
      const params = { ws: workspaceId, cutoff };
      const [{ gone } = { gone: 0 }] = await rows<{ gone: string | number }>(
        `SELECT count() AS gone FROM ${t("check_results")} FINAL WHERE workspace_id = {ws:UInt32} AND cron_timestamp < fromUnixTimestamp64Milli({cutoff:Int64}, 'UTC')`,
        params,
      );
      await command(
        `DELETE FROM ${t("check_results")} WHERE workspace_id = {ws:UInt32} AND cron_timestamp < fromUnixTimestamp64Milli({cutoff:Int64}, 'UTC')`,
        params,
      );
      await command(
        `DELETE FROM ${t("check_results_hourly")} WHERE workspace_id = {ws:UInt32} AND toInt64(toUnixTimestamp(bucket)) * 1000 + ${BUCKET_MS.hour} <= {cutoff:Int64}`,
        params,
      );
      await command(
        `DELETE FROM ${t("check_results_daily")} WHERE workspace_id = {ws:UInt32} AND toInt64(toUnixTimestamp(bucket)) * 1000 + ${BUCKET_MS.day} <= {cutoff:Int64}`,
        params,
      );
      await trimLibsql(db, workspaceId, cutoff);
      return n(gone);
    },

    async insertResults(results) {
      if (results.length === 0) return;
      const token = createHash("sha256")
        .update(results.map((r) => r.id).join(","))
        .digest("hex");
      try {
        await client.insert({
          table: t("check_results"),
          format: "JSONEachRow",
          values: results.map((r) => ({
            id: r.id,
            workspace_id: r.workspaceId,
            monitor_id: r.monitorId,
            location_id: r.locationId,
            region: r.region,
            cron_timestamp: r.cronTimestamp,
            started_at: r.startedAt,
            status: r.status,
            latency_ms: Math.max(0, Math.round(r.latencyMs)),
            status_code: r.statusCode,
            error_message: r.errorMessage,
            attempts: r.attempts,
            timings: r.timings ?? {},
          })),
          clickhouse_settings: { insert_deduplication_token: token, deduplicate_blocks_in_dependent_materialized_views: 1 },
        });
      } catch (err) {
        throw toAnalyticsError(err, where);
      }
    },

    async ping() {
      await rows("SELECT 1", {});
    },
  };
}

/** libSQL keeps results only for evaluation once ClickHouse holds them: exported, evaluated rows past retention go. */
async function trimLibsql(db: Db, workspaceId: number, cutoff: number) {
  const [mark] = await db
    .select({ through: analyticsExport.exportedThrough })
    .from(analyticsExport)
    .where(eq(analyticsExport.store, EXPORT_STORE));
  if (!mark) return;
  await db
    .delete(checkResultRow)
    .where(
      and(
        eq(checkResultRow.workspaceId, workspaceId),
        lt(checkResultRow.cronTimestamp, cutoff),
        evaluated,
        lte(checkResultRow.id, mark.through),
        NOT_NEWEST,
      ),
    );
}

export const EXPORT_STORE = "clickhouse";
