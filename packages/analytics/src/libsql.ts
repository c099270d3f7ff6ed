import { checkResult, checkResultRow, type Db, monitorEvaluation } from "@vigil/db-schema";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { type Analytics, BUCKET_MS, type DailyUptime, uptimeOf } from "./types";

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * With ClickHouse, retention in libSQL never deletes the newest row: SQLite would hand its rowid out
 * again, and the exporter's watermark (a rowid) would then skip the next result.
 */
export const NOT_NEWEST = sql`${checkResultRow.id} < (select max(id) from ${checkResultRow})`;

/** Rows an evaluation has read (at or below its monitor's watermark). */
export const evaluated = sql`${checkResultRow.id} <= (select ${monitorEvaluation.through} from ${monitorEvaluation} where ${monitorEvaluation.monitorId} = ${checkResultRow.monitorId})`;

/** The default backend: the `check_result` table in libSQL, fine up to ~100 monitors. */
export function libsqlAnalytics(db: Db): Analytics {
  return {
    backend: "libsql",
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
          locationId: num(row.loc),
          total,
          success: Number(row.success),
          degraded: Number(row.degraded),
          error,
          uptime: uptimeOf(total, error),
          p50: num(row.p50),
          p95: num(row.p95),
          p99: num(row.p99),
        };
      });
    },
    async dailyUptime(q) {
      const out: DailyUptime[] = [];
      // sqld caps one response's size: a status page with 1,000 monitors asks in groups.
      for (let i = 0; i < q.monitorIds.length; i += DAILY_GROUP) {
        out.push(...(await dailyUptimeOf(db, q.monitorIds.slice(i, i + DAILY_GROUP), q.from, q.to)));
      }
      return out.sort((a, b) => a.monitorId - b.monitorId || a.day - b.day);
    },
    async deleteBefore(workspaceId, cutoff) {
      // Pending results are kept until evaluation has seen them.
      const gone = await db
        .delete(checkResultRow)
        .where(and(eq(checkResultRow.workspaceId, workspaceId), lt(checkResultRow.cronTimestamp, cutoff), evaluated));
      return gone.rowsAffected;
    },
  };
}

const DAILY_GROUP = 100;

async function dailyUptimeOf(db: Db, monitorIds: number[], from: number, to: number): Promise<DailyUptime[]> {
  const c = checkResult;
  const day = sql<number>`(${c.cronTimestamp} / 86400000) * 86400000`;
  const rows = await db
    .select({
      monitorId: c.monitorId,
      day,
      total: sql<number>`count(*)`,
      success: sql<number>`sum(${c.status} = 'success')`,
      degraded: sql<number>`sum(${c.status} = 'degraded')`,
      error: sql<number>`sum(${c.status} = 'error')`,
    })
    .from(c)
    .where(and(inArray(c.monitorId, monitorIds), gte(c.cronTimestamp, from), lt(c.cronTimestamp, to)))
    .groupBy(c.monitorId, day)
    .orderBy(c.monitorId, day);
  return rows.map((r) => {
    const total = Number(r.total);
    const error = Number(r.error);
    return {
      monitorId: Number(r.monitorId),
      day: Number(r.day),
      total,
      success: Number(r.success),
      degraded: Number(r.degraded),
      error,
      uptime: uptimeOf(total, error),
    };
  });
}
