// Analytics over libSQL in one file: the rollup, retention and every read share the same hour, watermark and newest-row rules.
import { checkResultRow, type Db, monitorEvaluation, writeBatch } from "@vigil/db-schema";
import { sql } from "drizzle-orm";
import { type Analytics, BUCKET_MS, type DailyUptime, type MonitorSeriesPoint, type MonitorsSeriesQuery, uptimeOf } from "./types";

/**
 * With ClickHouse, retention in libSQL never deletes the newest row: SQLite would hand its rowid out
 * again, and the exporter's watermark (a rowid) would then skip the next result.
 */
export const NOT_NEWEST = sql`${checkResultRow.id} < (select max(id) from ${checkResultRow})`;

/** Rows an evaluation has read (at or below its monitor's watermark). */
export const evaluated = sql`${checkResultRow.id} <= (select ${monitorEvaluation.through} from ${monitorEvaluation} where ${monitorEvaluation.monitorId} = ${checkResultRow.monitorId})`;

/** Stored statuses (check_result_row.status): success, degraded, error. */
const OK = 0;
const DEGRADED = 1;
const ERROR = 2;

/** The `analytics_export` row whose watermark says which results `check_result_hour` holds. */
export const ROLLUP_STORE = "check_result_hour";

export interface RollupOutcome {
  /** check_result rowid every result up to which is summed in the summed hours. */
  through: number;
  /** Whether completed hours were left for the next call. */
  behind: boolean;
}

export interface LibsqlAnalytics extends Analytics {
  readonly backend: "libsql";
  /**
   * Sums each monitor's completed hours not summed yet (at most `span` ms of them per monitor and step,
   * `monitors` monitors per step, `maxBatches` steps), and sums again the hours late results fell in. Reads
   * are exact without it; it makes them fast.
   */
  rollup(opts?: { monitors?: number; span?: number; maxBatches?: number; now?: number }): Promise<RollupOutcome>;
}

const H = BUCKET_MS.hour;
const MARK = `(select coalesce(max(exported_through), 0) from analytics_export where store = '${ROLLUP_STORE}')`;
const PENDING = `(select pending_through from analytics_export where store = '${ROLLUP_STORE}')`;
/** The hour before which result `c`'s monitor is summed (0: none yet). */
const SUMMED_TO = "coalesce((select r.through from check_result_rollup r where r.monitor_id = c.monitor_id), 0)";

/** Results (`c`) counted per monitor, hour, location and latency: the exact histogram's rows. */
const perLatency = (from: string, where: string) =>
  `select c.workspace_id, c.monitor_id, (c.cron_timestamp / ${H}) * ${H} as hour, c.location_id, c.latency_ms, count(*) as n,
    sum(c.status = ${OK}) as s, sum(c.status = ${DEGRADED}) as d, sum(c.status = ${ERROR}) as e
  from ${from} where ${where} group by c.monitor_id, hour, c.location_id, c.latency_ms`;

/** Per monitor, hour and location: counts and the latency histogram as a JSON array of latency, count, … */
const hourSums = (source: string) =>
  `select monitor_id, hour, location_id, max(workspace_id) as workspace_id, sum(n) as total, sum(s) as success,
    sum(d) as degraded, sum(e) as error, '[' || group_concat(latency_ms || ',' || n) || ']' as latencies
  from (${source}) where true group by monitor_id, hour, location_id`;

const upsertHours = (source: string) =>
  `insert into check_result_hour (monitor_id, hour, location_id, workspace_id, total, success, degraded, error, latencies)
  ${hourSums(source)}
  on conflict (monitor_id, hour, location_id) do update set workspace_id = excluded.workspace_id, total = excluded.total,
    success = excluded.success, degraded = excluded.degraded, error = excluded.error, latencies = excluded.latencies`;

type Stmt = { sql: string; args: (string | number)[] };
/** Raw SQL in `writeBatch`'s shape. */
const query = (s: Stmt) => ({ toSQL: () => ({ sql: s.sql, params: s.args }) });
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

interface HourCell {
  monitorId: number;
  hour: number;
  locationId: number;
  total: number;
  success: number;
  degraded: number;
  error: number;
  latencies: string;
}

/** Whole hours of [from, to) as [a, b) (empty, a = b = to, when there is none). */
function wholeHours(from: number, to: number): [number, number] {
  const up = Math.ceil(from / H) * H;
  const down = Math.floor(to / H) * H;
  return up < down ? [up, down] : [to, to];
}

/** Past this many results behind the rollup, late results are looked up per monitor instead of in rowid order. */
const LATE_SCAN = 20_000;

export interface LibsqlAnalyticsOptions {
  /** Results behind the rollup up to which reads find late results in rowid order (default 20,000). */
  lateScan?: number;
}

/**
 * The raw results a read adds to check_result_hour's whole hours [a, b): the partial hours at the edges of
 * [from, to), each monitor's hours not summed yet, and late results past the rollup's watermark in summed
 * hours. Late results are few (those since the last rollup): found in rowid order, or through the monitor's
 * index when the rollup has fallen far behind. SQLite tests the constant backlog condition once and skips
 * the branch not taken.
 */
function rawResults(
  lateScan: number,
  monitorIds: readonly number[],
  from: number,
  to: number,
  a: number,
  b: number,
  locationId?: number,
): Stmt {
  const ids = marks(monitorIds.length);
  const loc = locationId === undefined ? "" : " and c.location_id = ?";
  const locArgs = locationId === undefined ? [] : [locationId];
  const cols = "c.workspace_id, c.monitor_id, c.cron_timestamp, c.location_id, c.latency_ms, c.status";
  const backlog = `(select coalesce(max(id), 0) from check_result_row) - ${MARK}`;
  const parts: Stmt[] = [];
  const range = (x: number, y: number) =>
    parts.push({
      sql: `select ${cols} from check_result_row c where c.monitor_id in (${ids}) and c.cron_timestamp >= ? and c.cron_timestamp < ?${loc}`,
      args: [...monitorIds, x, y, ...locArgs],
    });
  if (a === b) range(from, to);
  else {
    if (from < a) range(from, a);
    if (b < to) range(b, to);
    const late = `c.cron_timestamp >= ? and c.cron_timestamp < ?${loc} and c.cron_timestamp < ${SUMMED_TO}`;
    parts.push(
      {
        sql: `select ${cols} from (select m.value as monitor_id,
            max(?, coalesce((select r.through from check_result_rollup r where r.monitor_id = m.value), 0)) as start
            from json_each(?) m) w
          join check_result_row c on c.monitor_id = w.monitor_id and c.cron_timestamp >= w.start and c.cron_timestamp < ?${loc}`,
        args: [a, JSON.stringify(monitorIds), b, ...locArgs],
      },
      {
        sql: `select ${cols} from check_result_row c where c.id > ${MARK} and ${backlog} <= ${lateScan} and +c.monitor_id in (${ids}) and ${late}`,
        args: [...monitorIds, a, b, ...locArgs],
      },
      {
        sql: `select ${cols} from check_result_row c where ${backlog} > ${lateScan} and c.monitor_id in (${ids}) and ${late} and c.id > ${MARK}`,
        args: [...monitorIds, a, b, ...locArgs],
      },
    );
  }
  return { sql: `(${parts.map((p) => p.sql).join(" union all ")})`, args: parts.flatMap((p) => p.args) };
}

/**
 * Whole hours come from check_result_hour plus the results past its watermark; partial hours at the edges
 * from check_result. Both in one read transaction, so a rollup committing in between never counts a result
 * twice or not at all.
 */
function hourStatements(lateScan: number, monitorIds: readonly number[], from: number, to: number, locationId: number | undefined): Stmt[] {
  const [a, b] = wholeHours(from, to);
  const loc = locationId === undefined ? "" : " and location_id = ?";
  const raw = rawResults(lateScan, monitorIds, from, to, a, b, locationId);
  const rawSums = { sql: hourSums(perLatency(`${raw.sql} c`, "true")), args: raw.args };
  if (a === b) return [rawSums];
  const rolled: Stmt = {
    sql: `select monitor_id, hour, location_id, total, success, degraded, error, latencies from check_result_hour
      where monitor_id in (${marks(monitorIds.length)}) and hour >= ? and hour < ?${loc}`,
    args: [...monitorIds, a, b, ...(locationId === undefined ? [] : [locationId])],
  };
  return [rolled, rawSums];
}

/** Nearest rank: the value at rank ceil(p·n) of the sorted latencies. */
function percentiles(hist: Map<number, number>, total: number) {
  const sorted = [...hist].sort((x, y) => x[0] - y[0]);
  const at = (p: number) => {
    const rank = Math.max(1, Math.ceil(p * total));
    let seen = 0;
    for (const [value, count] of sorted) {
      seen += count;
      if (seen >= rank) return value;
    }
    return null;
  };
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Hour cells summed into buckets of `size` (per location when `byLocation`), by monitor then time. */
function toSeries(cells: HourCell[], size: number, byLocation: boolean): MonitorSeriesPoint[] {
  type Acc = Omit<MonitorSeriesPoint, "uptime" | "p50" | "p95" | "p99"> & { hist: Map<number, number> };
  const buckets = new Map<string, Acc>();
  for (const c of cells) {
    const start = Math.floor(c.hour / size) * size;
    const locationId = byLocation ? c.locationId : null;
    const key = `${c.monitorId}:${start}:${locationId}`;
    let acc = buckets.get(key);
    if (!acc) {
      acc = { monitorId: c.monitorId, start, locationId, total: 0, success: 0, degraded: 0, error: 0, hist: new Map() };
      buckets.set(key, acc);
    }
    acc.total += c.total;
    acc.success += c.success;
    acc.degraded += c.degraded;
    acc.error += c.error;
    const flat = JSON.parse(c.latencies) as number[];
    for (let i = 0; i < flat.length; i += 2) acc.hist.set(flat[i]!, (acc.hist.get(flat[i]!) ?? 0) + flat[i + 1]!);
  }
  return [...buckets.values()]
    .sort((x, y) => x.monitorId - y.monitorId || x.start - y.start || (x.locationId ?? 0) - (y.locationId ?? 0))
    .map(({ hist, ...p }) => ({ ...p, uptime: uptimeOf(p.total, p.error), ...percentiles(hist, p.total) }));
}

/** The default backend: the `check_result` table in libSQL, read through its hourly rollup `check_result_hour`. */
export function libsqlAnalytics(db: Db, opts: LibsqlAnalyticsOptions = {}): LibsqlAnalytics {
  const lateScan = Math.max(0, Math.floor(opts.lateScan ?? LATE_SCAN));
  async function hourCells(monitorIds: readonly number[], from: number, to: number, locationId?: number): Promise<HourCell[]> {
    if (monitorIds.length === 0 || from >= to) return [];
    const results = await db.$client.batch(hourStatements(lateScan, monitorIds, from, to, locationId), "read");
    return results.flatMap((rs) =>
      rs.rows.map((r) => ({
        monitorId: Number(r.monitor_id),
        hour: Number(r.hour),
        locationId: Number(r.location_id),
        total: Number(r.total),
        success: Number(r.success),
        degraded: Number(r.degraded),
        error: Number(r.error),
        latencies: String(r.latencies),
      })),
    );
  }

  async function seriesOfMonitors(q: MonitorsSeriesQuery) {
    return toSeries(await hourCells(q.monitorIds, q.from, q.to), BUCKET_MS[q.bucket], false);
  }

  return {
    backend: "libsql",
    async series(q) {
      const cells = await hourCells([q.monitorId], q.from, q.to, q.locationId);
      return toSeries(cells, BUCKET_MS[q.bucket], q.locationId !== undefined).map(({ monitorId: _, ...p }) => p);
    },
    seriesOfMonitors,
    async dailyUptime(q) {
      const out: DailyUptime[] = [];
      // sqld caps one response's size: a status page with 1,000 monitors asks in groups.
      for (let i = 0; i < q.monitorIds.length; i += DAILY_GROUP) {
        out.push(...(await dailyUptimeOf(db, lateScan, q.monitorIds.slice(i, i + DAILY_GROUP), q.from, q.to)));
      }
      return out.sort((a, b) => a.monitorId - b.monitorId || a.day - b.day);
    },
    async deleteBefore(workspaceId, cutoff) {
      // Pending results are kept until evaluation has seen them. The hours before the cutoff's are summed
      // again from what is left (pending results and the cutoff's own hour after the cutoff).
      const through = Math.ceil(cutoff / H) * H;
      const [gone] = await writeBatch(db, [
        query({
          sql: `delete from check_result_row where workspace_id = ? and cron_timestamp < ?
            and id <= (select e.through from monitor_evaluation e where e.monitor_id = check_result_row.monitor_id)`,
          args: [workspaceId, cutoff],
        }),
        // SQLite hands the highest rowid out again once its row is gone: the watermark comes down with it, so
        // such a result still counts as past it.
        query({
          sql: `update analytics_export set exported_through = min(exported_through, (select coalesce(max(id), 0) from check_result_row))
            where store = ?`,
          args: [ROLLUP_STORE],
        }),
        query({ sql: "delete from check_result_hour where workspace_id = ? and hour < ?", args: [workspaceId, through] }),
        query({
          sql: upsertHours(
            perLatency(
              "check_result_row c",
              `c.workspace_id = ? and c.cron_timestamp < ? and c.cron_timestamp < ${SUMMED_TO} and c.id <= ${MARK}`,
            ),
          ),
          args: [workspaceId, through],
        }),
      ]);
      return gone!.rowsAffected;
    },
    async rollup(opts = {}) {
      const monitors = opts.monitors ?? 200;
      const span = opts.span ?? 24 * H;
      const maxBatches = opts.maxBatches ?? 50;
      const now = Math.floor((opts.now ?? Date.now()) / H) * H;
      // Monitors with results (one index seek each), the hour each is summed to, the most behind first.
      const work = `with recursive ids(m) as (select min(monitor_id) from check_result_row
          union all select (select min(monitor_id) from check_result_row where monitor_id > m) from ids where m is not null),
        chosen as (select i.m as monitor_id, min(?, coalesce(r.through,
            (select (min(c.cron_timestamp) / ${H}) * ${H} from check_result_row c where c.monitor_id = i.m), ?)) as start
          from ids i left join check_result_rollup r on r.monitor_id = i.m
          where i.m is not null and coalesce(r.through, 0) < ? order by coalesce(r.through, 0), i.m limit ?),
        work as (select monitor_id, start, min(start + ?, ?) as until from chosen)`;
      const workArgs = [now, now, now, monitors, span, now];
      for (let i = 0; ; i++) {
        const results = await writeBatch(db, [
          query({
            sql: "insert into analytics_export (store, exported_through) values (?, 0) on conflict (store) do nothing",
            args: [ROLLUP_STORE],
          }),
          query({
            sql: "update analytics_export set pending_through = (select coalesce(max(id), 0) from check_result_row) where store = ?",
            args: [ROLLUP_STORE],
          }),
          // Summed hours that results arrived late for are summed again whole.
          query({
            sql: upsertHours(
              `with touched as (select distinct c.monitor_id, c.location_id, (c.cron_timestamp / ${H}) * ${H} as hour
                from check_result_row c where c.id > ${MARK} and c.id <= ${PENDING} and c.cron_timestamp < ${SUMMED_TO})
              ${perLatency(
                `touched t join check_result_row c on c.monitor_id = t.monitor_id and c.cron_timestamp >= t.hour
                  and c.cron_timestamp < t.hour + ${H} and c.location_id = t.location_id`,
                `c.id <= ${PENDING}`,
              )}`,
            ),
            args: [],
          }),
          query({
            sql: upsertHours(
              `${work} ${perLatency(
                "work w join check_result_row c on c.monitor_id = w.monitor_id and c.cron_timestamp >= w.start and c.cron_timestamp < w.until",
                `c.id <= ${PENDING}`,
              )}`,
            ),
            args: workArgs,
          }),
          query({
            sql: `insert into check_result_rollup (monitor_id, through) ${work} select monitor_id, until from work where true
              on conflict (monitor_id) do update set through = excluded.through`,
            args: workArgs,
          }),
          query({
            sql: `update analytics_export set exported_through = pending_through, pending_through = null,
              updated_at = cast(unixepoch('subsec') * 1000 as integer) where store = ?`,
            args: [ROLLUP_STORE],
          }),
          query({ sql: `select ${MARK} as through`, args: [] }),
        ]);
        const out = { through: Number(results.at(-1)!.rows[0]!.through), behind: results.at(-3)!.rowsAffected > 0 };
        if (!out.behind || i + 1 >= maxBatches) return out;
      }
    },
  };
}

const DAILY_GROUP = 100;

/** Per-day counts from the hourly rollup for whole hours, from raw results for the edges and past its watermark. */
async function dailyUptimeOf(db: Db, lateScan: number, monitorIds: number[], from: number, to: number): Promise<DailyUptime[]> {
  const D = BUCKET_MS.day;
  const [a, b] = wholeHours(from, to);
  const raw = rawResults(lateScan, monitorIds, from, to, a, b);
  const rs = await db.$client.execute({
    sql: `select monitor_id, day, sum(total) as total, sum(success) as success, sum(degraded) as degraded, sum(error) as error from (
        select monitor_id, (hour / ${D}) * ${D} as day, total, success, degraded, error from check_result_hour
          where monitor_id in (${marks(monitorIds.length)}) and hour >= ? and hour < ?
        union all
        select monitor_id, (cron_timestamp / ${D}) * ${D} as day, 1, status = ${OK}, status = ${DEGRADED}, status = ${ERROR} from ${raw.sql})
      group by monitor_id, day order by monitor_id, day`,
    args: [...monitorIds, a, b, ...raw.args],
  });
  return rs.rows.map((r) => {
    const total = Number(r.total);
    const error = Number(r.error);
    return {
      monitorId: Number(r.monitor_id),
      day: Number(r.day),
      total,
      success: Number(r.success),
      degraded: Number(r.degraded),
      error,
      uptime: uptimeOf(total, error),
    };
  });
}
