import { checkResult, type Db } from "@vigil/db-schema";
import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";

export type Bucket = "hour" | "day";
const BUCKET_MS: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000 };

export interface SeriesQuery {
  monitorId: number;
  from: number; // ms, inclusive
  to: number; // ms, exclusive
  bucket: Bucket;
  locationId?: number;
}

export interface SeriesPoint {
  /** Bucket start, ms since epoch (UTC). */
  start: number;
  locationId: number | null;
  total: number;
  success: number;
  degraded: number;
  error: number;
  /** Share of checks that did not end in error, 0..1. */
  uptime: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** The results store behind status pages and the dashboard. */
export interface Analytics {
  series(q: SeriesQuery): Promise<SeriesPoint[]>;
  /** Deletes a workspace's results older than `cutoff` (ms); returns how many went. */
  deleteBefore(workspaceId: number, cutoff: number): Promise<number>;
}

/** The default backend: the `check_result` table in libSQL, fine up to ~100 monitors. */
export function libsqlAnalytics(db: Db): Analytics {
  return {
    async series(q) {
      const size = BUCKET_MS[q.bucket];
      const c = checkResult;
      // A literal, not a bound parameter: a bound JS number arrives as REAL and the division would not truncate.
      const bucket = sql`(${c.cronTimestamp} / ${sql.raw(String(size))}) * ${sql.raw(String(size))}`;
      const partition = q.locationId === undefined ? bucket : sql`${bucket}, ${c.locationId}`;
      const where = and(
        eq(c.monitorId, q.monitorId),
        gte(c.cronTimestamp, q.from),
        lt(c.cronTimestamp, q.to),
        q.locationId === undefined ? undefined : eq(c.locationId, q.locationId),
      );
      const rank = (p: number) => sql.raw(`max(case when rn = max(1, cast(ceil(${p} * n) as integer)) then latency_ms end)`);
      // Percentiles by nearest rank within each bucket, computed in the database.
      const ranked = sql`select ${bucket} as b, ${q.locationId === undefined ? sql`null` : c.locationId} as loc, ${c.status} as status,
          ${c.latencyMs} as latency_ms,
          row_number() over (partition by ${partition} order by ${c.latencyMs}) as rn,
          count(*) over (partition by ${partition}) as n
        from ${c} where ${where}`;
      type Raw = Record<"b" | "loc" | "total" | "success" | "degraded" | "error" | "p50" | "p95" | "p99", number | null>;
      const rows = await db.all<Raw>(sql`with r as (${ranked})
          select b, loc, count(*) as total, sum(status = 'success') as success, sum(status = 'degraded') as degraded,
            sum(status = 'error') as error, ${rank(0.5)} as p50, ${rank(0.95)} as p95, ${rank(0.99)} as p99
          from r group by b, loc order by b`);
      return rows.map((row) => {
        const total = Number(row.total);
        const error = Number(row.error);
        return {
          start: Number(row.b),
          locationId: row.loc === null ? null : Number(row.loc),
          total,
          success: Number(row.success),
          degraded: Number(row.degraded),
          error,
          uptime: total === 0 ? 1 : (total - error) / total,
          p50: row.p50 === null ? null : Number(row.p50),
          p95: row.p95 === null ? null : Number(row.p95),
          p99: row.p99 === null ? null : Number(row.p99),
        };
      });
    },
    async deleteBefore(workspaceId, cutoff) {
      // Pending results are kept until evaluation has seen them.
      const gone = await db
        .delete(checkResult)
        .where(and(eq(checkResult.workspaceId, workspaceId), lt(checkResult.cronTimestamp, cutoff), isNotNull(checkResult.evaluatedAt)));
      return gone.rowsAffected;
    },
  };
}
