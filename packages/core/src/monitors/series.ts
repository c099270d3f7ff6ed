// The monitor chart's data: latency of successful checks only, failures and "no data" as bands, over measured time.
import { type Frequency, frequencyMs } from "@vigil/api-contract";
import { type Db, maintenance, maintenanceMonitor, monitor, privateLocation } from "@vigil/db-schema";
import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { NotFoundError } from "../errors";

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

/** Above this many slots per location a range is aggregated: a chart cannot show more points than it has pixels. */
export const MAX_CHECK_POINTS = 720;
/** Bucket sizes of aggregated ranges, smallest first; a range takes the smallest giving at most MAX_BUCKETS. */
const BUCKETS = [MIN, 5 * MIN, 15 * MIN, 30 * MIN, H, 3 * H, 6 * H, 12 * H, D];
const MAX_BUCKETS = 300;

export interface ChartWindow {
  from: number;
  to: number;
  /** Each bucket is one slot (every check a point) or a span aggregated into p50/p95 and counts. */
  bucketMs: number;
  checkResolution: boolean;
  /** Bucket starts are `phase` modulo `bucketMs`: slots of a check-resolution chart keep their own times. */
  phase: number;
  /** The monitor's first check: time before it is not measured, so never "no data". */
  measuredFrom: number | null;
}

/**
 * The span a chart shows: the range asked for, from no earlier than the monitor's first check (a monitor
 * 10 minutes old shows its 10 minutes, not a day with one dot), at check resolution while that is a readable
 * number of points, aggregated into even buckets beyond.
 */
export function chartWindow(o: {
  rangeMs: number;
  now: number;
  intervalMs: number;
  firstCheckAt: number | null;
  /** A recent slot, whose phase the buckets follow (a monitor's first check may run off its slots). */
  lastCheckAt?: number | null;
}): ChartWindow {
  const { rangeMs, now, intervalMs } = o;
  const mod = (a: number, b: number) => ((a % b) + b) % b;
  const phase = mod(o.lastCheckAt ?? o.firstCheckAt ?? 0, intervalMs);
  const start = Math.max(now - rangeMs, o.firstCheckAt ?? now - rangeMs);
  // At least a few slots wide, so a monitor with one result still has an axis.
  const from = Math.min(start, now - 4 * intervalMs);
  const span = now - from;
  if (span / intervalMs <= MAX_CHECK_POINTS) {
    return {
      from: from - mod(from - phase, intervalMs),
      to: now,
      bucketMs: intervalMs,
      checkResolution: true,
      phase,
      measuredFrom: o.firstCheckAt,
    };
  }
  const bucketMs = BUCKETS.find((b) => b >= intervalMs && span / b <= MAX_BUCKETS) ?? D;
  return {
    from: Math.floor(from / bucketMs) * bucketMs,
    to: now,
    bucketMs,
    checkResolution: false,
    phase: 0,
    measuredFrom: o.firstCheckAt,
  };
}

/** One location's results in one bucket; latency percentiles over the checks that did not fail. */
export interface BucketCell {
  t: number;
  location: number;
  checks: number;
  degraded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

export type BandKind = "failed" | "degraded" | "no-data" | "maintenance";
export interface ChartBand {
  from: number;
  to: number;
  kind: BandKind;
}

export interface ChartSummary {
  checks: number;
  failed: number;
  degraded: number;
  /** Median latency of the checks that did not fail, ms. */
  p50: number | null;
  /** Time with no result from any location, ms (slots still running are not counted). */
  noDataMs: number;
}

export interface MonitorChart extends ChartWindow {
  /** One row per bucket, every bucket of the window (a bucket without a latency is a gap, not a point). */
  rows: Record<string, number | null>[];
  bands: ChartBand[];
  summary: ChartSummary;
  locations: { locationId: number; name: string; checks: number; failed: number; degraded: number }[];
}

/**
 * Rows and bands from per-bucket cells. A failed check never becomes a latency point: its bucket's
 * latency is that of the checks that did not fail, or null (a break in the line) when none did. Buckets
 * with no result from any location are "no data" bands once their slot has had time to report.
 */
export function shapeSeries(
  w: ChartWindow,
  cells: readonly BucketCell[],
  locationIds: readonly number[],
  o: { now: number; intervalMs: number; maintenance?: readonly { startsAt: number; endsAt: number }[] },
): Pick<MonitorChart, "rows" | "bands"> {
  const index = new Map(locationIds.map((id, i) => [id, i]));
  const byT = new Map<number, BucketCell[]>();
  for (const c of cells) {
    if (!index.has(c.location)) continue;
    const list = byT.get(c.t);
    if (list) list.push(c);
    else byT.set(c.t, [c]);
  }
  const rows: Record<string, number | null>[] = [];
  const states: { t: number; kind: BandKind | null }[] = [];
  for (let t = w.from; t < w.to; t += w.bucketMs) {
    // A check is drawn at its slot's time, an aggregated bucket at its middle; each band is centred on its point.
    const row: Record<string, number | null> = { t: w.checkResolution ? t : t + w.bucketMs / 2 };
    const here = byT.get(t) ?? [];
    locationIds.forEach((_, i) => {
      const c = here.find((x) => index.get(x.location) === i);
      const ok = c && c.checks > c.failed;
      if (w.checkResolution) row[`latency_${i}`] = ok ? c.p50 : null;
      else {
        row[`p50_${i}`] = ok ? c.p50 : null;
        row[`p95_${i}`] = ok ? c.p95 : null;
      }
      row[`failed_${i}`] = c?.failed ?? 0;
      row[`checks_${i}`] = c?.checks ?? 0;
    });
    rows.push(row);
    // Before the first check nothing was measured; the latest slot may still be on its way.
    const reported = w.measuredFrom !== null && t + w.bucketMs > w.measuredFrom && t + w.bucketMs + o.intervalMs <= o.now;
    const kind: BandKind | null = here.some((c) => c.failed > 0)
      ? "failed"
      : here.some((c) => c.degraded > 0)
        ? "degraded"
        : here.length === 0 && reported
          ? "no-data"
          : null;
    states.push({ t, kind });
  }
  const bands: ChartBand[] = [];
  for (const s of states) {
    if (s.kind === null) continue;
    const last = bands.at(-1);
    const from = w.checkResolution ? s.t - w.bucketMs / 2 : s.t;
    if (last && last.kind === s.kind && last.to === from) last.to = from + w.bucketMs;
    else bands.push({ from, to: from + w.bucketMs, kind: s.kind });
  }
  for (const m of o.maintenance ?? []) {
    const from = Math.max(m.startsAt, w.from);
    const to = Math.min(m.endsAt, w.to);
    if (from < to) bands.push({ from, to, kind: "maintenance" });
  }
  return { rows, bands };
}

/** Time covered by "no data" bands. */
export const noDataMs = (bands: readonly ChartBand[]) => bands.filter((b) => b.kind === "no-data").reduce((n, b) => n + b.to - b.from, 0);

const int = (n: number) => sql.raw(String(Math.trunc(n)));

/** Counts and nearest-rank p50/p95 of the checks that did not fail, per bucket and location, in one query. */
async function bucketCells(db: Db, workspaceId: number, monitorId: number, w: ChartWindow): Promise<BucketCell[]> {
  const B = int(w.bucketMs);
  const P = int(w.phase);
  const rows = await db.all<Record<string, number | null>>(sql`
    with r as (
      select ((cron_timestamp - ${P}) / ${B}) * ${B} + ${P} as b, location_id as loc, status, latency_ms as ms
      from check_result_row
      where monitor_id = ${int(monitorId)} and workspace_id = ${int(workspaceId)}
        and cron_timestamp >= ${int(w.from)} and cron_timestamp < ${int(w.to)}
    ),
    ok as (
      select b, loc, ms, row_number() over (partition by b, loc order by ms) as rn, count(*) over (partition by b, loc) as k
      from r where status != 2
    )
    select c.b, c.loc, c.n, c.d, c.e, p.p50, p.p95 from
      (select b, loc, count(*) as n, sum(status = 1) as d, sum(status = 2) as e from r group by b, loc) c
      left join (
        select b, loc, max(case when rn = (k * 50 + 99) / 100 then ms end) as p50, max(case when rn = (k * 95 + 99) / 100 then ms end) as p95
        from ok group by b, loc
      ) p on p.b = c.b and p.loc = c.loc
    order by c.b`);
  const num = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    t: Number(r.b),
    location: Number(r.loc),
    checks: Number(r.n),
    degraded: Number(r.d),
    failed: Number(r.e),
    p50: num(r.p50),
    p95: num(r.p95),
  }));
}

/** Median latency of the window's checks that did not fail, every location together. */
async function medianOk(db: Db, workspaceId: number, monitorId: number, w: ChartWindow): Promise<number | null> {
  const [row] = await db.all<{ p50: number | null }>(sql`
    with ok as (
      select latency_ms as ms, row_number() over (order by latency_ms) as rn, count(*) over () as k from check_result_row
      where monitor_id = ${int(monitorId)} and workspace_id = ${int(workspaceId)} and status != 2
        and cron_timestamp >= ${int(w.from)} and cron_timestamp < ${int(w.to)}
    )
    select max(case when rn = (k * 50 + 99) / 100 then ms end) as p50 from ok`);
  return row?.p50 === null || row?.p50 === undefined ? null : Number(row.p50);
}

/** The monitor's first and latest slots with a result (any location), null before any; two index lookups. */
async function checkSpan(db: Db, monitorId: number) {
  const of = sql`from check_result_row where monitor_id = ${int(monitorId)}`;
  const [row] = await db.all<{ first: number | null; last: number | null }>(
    sql`select (select min(cron_timestamp) ${of}) as first, (select max(cron_timestamp) ${of}) as last`,
  );
  const num = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { firstCheckAt: num(row?.first), lastCheckAt: num(row?.last) };
}

/** The maintenance windows covering the monitor that overlap [from, to). */
export async function maintenanceOf(db: Db, workspaceId: number, monitorId: number, from: number, to: number) {
  return db
    .select({ startsAt: maintenance.startsAt, endsAt: maintenance.endsAt })
    .from(maintenance)
    .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
    .where(
      and(
        eq(maintenance.workspaceId, workspaceId),
        eq(maintenanceMonitor.monitorId, monitorId),
        lt(maintenance.startsAt, to),
        gt(maintenance.endsAt, from),
      ),
    )
    .orderBy(asc(maintenance.startsAt));
}

/**
 * A monitor's latency chart over `rangeMs` back from `now`, clipped to its measured time. The caller has
 * checked the monitor is the workspace's; `locations` are those serving it, in the chart's order.
 */
export async function monitorChart(
  db: Db,
  workspaceId: number,
  monitorId: number,
  locations: readonly { locationId: number; name: string }[],
  rangeMs: number,
  now = Date.now(),
): Promise<MonitorChart> {
  const [m] = await db
    .select({ frequency: monitor.frequency })
    .from(monitor)
    .where(and(eq(monitor.id, monitorId), eq(monitor.workspaceId, workspaceId)));
  if (!m) throw new NotFoundError("monitor", monitorId);
  const intervalMs = frequencyMs(m.frequency as Frequency);
  const w = chartWindow({ rangeMs, now, intervalMs, ...(await checkSpan(db, monitorId)) });
  const [cells, p50, windows] = await Promise.all([
    bucketCells(db, workspaceId, monitorId, w),
    medianOk(db, workspaceId, monitorId, w),
    maintenanceOf(db, workspaceId, monitorId, w.from, w.to),
  ]);
  const ids = locations.map((l) => l.locationId);
  const { rows, bands } = shapeSeries(w, cells, ids, { now, intervalMs, maintenance: windows });
  const mine = cells.filter((c) => ids.includes(c.location));
  const sum = (list: readonly BucketCell[], k: "checks" | "failed" | "degraded") => list.reduce((n, c) => n + c[k], 0);
  return {
    ...w,
    rows,
    bands,
    summary: {
      checks: sum(mine, "checks"),
      failed: sum(mine, "failed"),
      degraded: sum(mine, "degraded"),
      p50,
      noDataMs: noDataMs(bands),
    },
    locations: locations.map((l) => {
      const own = mine.filter((c) => c.location === l.locationId);
      return {
        locationId: l.locationId,
        name: l.name,
        checks: sum(own, "checks"),
        failed: sum(own, "failed"),
        degraded: sum(own, "degraded"),
      };
    }),
  };
}

export interface OfflineLocation {
  locationId: number;
  name: string;
  region: string;
  /** When its probe last reported, or null if it never did. */
  lastSeenAt: number | null;
}

/**
 * The workspace's locations marked offline (their probes silent for three intervals), optionally only those
 * serving `regions`: while one is away its results are missing, and "no data" must not pass for "up".
 */
export async function offlineLocations(db: Db, workspaceId: number, regions?: readonly string[]): Promise<OfflineLocation[]> {
  const rows = await db
    .select({
      locationId: privateLocation.id,
      name: privateLocation.name,
      region: privateLocation.region,
      lastSeenAt: privateLocation.lastSeenAt,
    })
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), eq(privateLocation.online, false), isNull(privateLocation.deletedAt)))
    .orderBy(asc(privateLocation.name));
  return regions ? rows.filter((r) => regions.includes(r.region)) : rows;
}
