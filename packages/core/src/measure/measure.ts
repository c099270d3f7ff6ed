// The one unit of measure: slot verdicts over measured time. Uptime, SLA, error budget, status-page bars and
// charts all read it here, so every surface tells the same figure to the second.
import { FREQUENCIES, type Frequency, frequencyMs, type MeasuredUptime } from "@vigil/api-contract";
import type { Db } from "@vigil/db-schema";
import { aggregate, type CheckStatus } from "../alerts/evaluate";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Time and slots of one stretch, by what was measured there. */
export interface Tally {
  /** Time whose slot verdict was up (every location, or a quorum, reported success). */
  upMs: number;
  /** Time whose slot verdict was degraded (counts as up in uptime). */
  degradedMs: number;
  /** Time whose slot verdict was down: the quorum of the slot's locations reported an error. */
  downMs: number;
  /** Measured time with no result at all: neither up nor down. */
  noDataMs: number;
  /** Measured time inside a maintenance window covering the monitor: left out of every figure. */
  maintenanceMs: number;
  upSlots: number;
  degradedSlots: number;
  downSlots: number;
  /** Slots whose time began inside a maintenance window (their verdicts are left out). */
  maintenanceSlots: number;
}

export interface MeasureBucket extends Tally {
  /** Bucket start (UTC day or hour), ms. */
  start: number;
  end: number;
  /** The part of the bucket inside measured time (0 before the first check or after now). */
  measuredMs: number;
}

export interface Measurement extends Tally {
  monitorId: number;
  /** The length of one slot: the monitor's check interval. */
  slotMs: number;
  /** The monitor's first stored result (its slot time); null when it never reported. */
  firstCheckAt: number | null;
  /** max(period start, first check); equals `measuredTo` when nothing was measured. */
  measuredFrom: number;
  /** min(period end, now). */
  measuredTo: number;
  /** measuredTo − measuredFrom = up + degraded + down + no data + maintenance. */
  measuredMs: number;
  /** Per day or hour of the period (empty unless asked for). */
  buckets: MeasureBucket[];
}

export interface MeasureOptions {
  /** Period start, ms. */
  from: number;
  /** Period end (exclusive), ms; a period ending in the future is measured up to now. */
  to: number;
  nowMs: number;
  /** A breakdown per UTC day or hour, for bars and charts. */
  bucket?: "day" | "hour";
}

export const emptyTally = (): Tally => ({
  upMs: 0,
  degradedMs: 0,
  downMs: 0,
  noDataMs: 0,
  maintenanceMs: 0,
  upSlots: 0,
  degradedSlots: 0,
  downSlots: 0,
  maintenanceSlots: 0,
});

/** Adds b into a (the page's total of its monitors). */
export function addTally(a: Tally, b: Tally): Tally {
  for (const k of Object.keys(a) as (keyof Tally)[]) a[k] += b[k];
  return a;
}

/** Time with a verdict: up, degraded or down (no data and maintenance left out). */
export const countedMs = (t: Tally) => t.upMs + t.degradedMs + t.downMs;
export const countedSlots = (t: Tally) => t.upSlots + t.degradedSlots + t.downSlots;

/** Share of counted time not down, 0..1; null when nothing was counted (shown as "no data", never 100 %). */
export const uptimeOf = (t: Tally): number | null => (countedMs(t) === 0 ? null : (t.upMs + t.degradedMs) / countedMs(t));

export interface TimeBudget {
  /** (1 − target) of the counted time. */
  allowedMs: number;
  /** The down time. */
  usedMs: number;
  /** allowed − used; below 0 once overspent. */
  remainingMs: number;
  /** 1 − used / allowed (1 when nothing was counted); below 0 once overspent. */
  remaining: number;
}

/** The error budget of a target (a fraction, 0.999) over what was counted: no time is extrapolated. */
export function timeBudget(t: Tally, target: number): TimeBudget {
  const allowedMs = countedMs(t) * (1 - target);
  const usedMs = t.downMs;
  return { allowedMs, usedMs, remainingMs: allowedMs - usedMs, remaining: allowedMs === 0 ? 1 : 1 - usedMs / allowedMs };
}

/** Maintenance windows covering a monitor: linked to it, or to a page component showing it. */
export const COVERING = `select w.id, w.title, w.starts_at, w.ends_at, mm.monitor_id from maintenance w join maintenance_monitor mm on mm.maintenance_id = w.id
  union select w.id, w.title, w.starts_at, w.ends_at, c.monitor_id from maintenance w join maintenance_component mc on mc.maintenance_id = w.id
  join status_page_component c on c.id = mc.component_id where c.monitor_id is not null`;

/**
 * Runs of consecutive slots with the same results (locations reporting, errors, degraded), in the same bucket
 * and on the same side of maintenance: a 90-day bar of 30 s checks reads a few rows, not 259,200. `inWindow` is
 * the monitor's maintenance windows as a condition on the slot time (integers read from the database).
 */
const runsSql = (inWindow: string) => `with s as (
    select cron_timestamp as c, count(*) as n, coalesce(sum(status = 2), 0) as e, coalesce(sum(status = 1), 0) as d
    from check_result_row where monitor_id = ?1 and cron_timestamp >= ?2 and cron_timestamp < ?3 group by cron_timestamp
  ), k as (
    select c, n, e, d, ${inWindow} as m, case when c < ?4 then -1 else c / cast(?5 as integer) end as b from s
  ), f as (
    select *, case when lag(n) over w = n and lag(e) over w = e and lag(d) over w = d and lag(m) over w = m and lag(b) over w = b
      and c - lag(c) over w <= ?6 then 0 else 1 end as brk from k window w as (order by c)
  ), g as (select *, sum(brk) over (order by c rows unbounded preceding) as grp from f)
  select min(c) as first, max(c) as last, count(*) as slots, n, e, d, m from g group by grp order by first`;

const windowCondition = (ws: { start: number; end: number }[]) =>
  ws.length === 0 ? "0" : `(${ws.map((w) => `(c >= ${Math.trunc(w.start)} and c < ${Math.trunc(w.end)})`).join(" or ")})`;

const statusesOf = (n: number, e: number, d: number): CheckStatus[] => [
  ...Array<CheckStatus>(e).fill("error"),
  ...Array<CheckStatus>(d).fill("degraded"),
  ...Array<CheckStatus>(n - e - d).fill("success"),
];

const slotLength = (frequency: string, hbPeriodMs: number | null) =>
  (FREQUENCIES as readonly string[]).includes(frequency) ? frequencyMs(frequency as Frequency) : (hbPeriodMs ?? 60_000);

type Kind = "up" | "degraded" | "down" | "noData" | "maintenance";
const MS_KEY = { up: "upMs", degraded: "degradedMs", down: "downMs", noData: "noDataMs", maintenance: "maintenanceMs" } as const;
const SLOT_KEY = { up: "upSlots", degraded: "degradedSlots", down: "downSlots", maintenance: "maintenanceSlots" } as const;

/**
 * What was measured of each monitor over [from, to): every slot's verdict is the monitor's quorum over the
 * results its locations stored for that slot (`aggregate`, as alerting decides), and lasts one interval (up to
 * the next slot). Measured time runs from the later of `from` and the monitor's first check to the earlier of
 * `to` and `nowMs`; maintenance windows covering the monitor are left out, and measured time without any
 * result is "no data", neither up nor down. Every surface (SLA reports and their exports, the API, `vigil
 * report`, status-page bars and uptime) calls this one function; the SLO issue reuses it.
 *
 * Returns one measurement per monitor id given (in that order); unknown ids measure nothing.
 */
export async function measure(db: Db, monitorIds: readonly number[], opts: MeasureOptions): Promise<Measurement[]> {
  if (monitorIds.length === 0) return [];
  const marks = monitorIds.map(() => "?").join(", ");
  const [meta, windows] = await db.$client.batch(
    [
      {
        sql: `select m.id, m.frequency, m.hb_period_ms, (select min(r.cron_timestamp) from check_result_row r where r.monitor_id = m.id) as first
          from monitor m where m.id in (${marks})`,
        args: [...monitorIds],
      },
      {
        sql: `select distinct monitor_id, starts_at, ends_at from (${COVERING}) where monitor_id in (${marks}) and starts_at < ? and ends_at > ?`,
        args: [...monitorIds, Math.min(opts.to, opts.nowMs), opts.from],
      },
    ],
    "read",
  );
  const info = new Map(
    meta!.rows.map((r) => [
      Number(r.id),
      {
        slotMs: slotLength(String(r.frequency), r.hb_period_ms == null ? null : Number(r.hb_period_ms)),
        first: r.first == null ? null : Number(r.first),
      },
    ]),
  );
  const end = Math.min(opts.to, opts.nowMs);
  const plan = monitorIds.map((id) => {
    const m = info.get(id);
    const slotMs = m?.slotMs ?? 60_000;
    const firstCheckAt = m?.first ?? null;
    const measuredTo = Math.max(opts.from, end);
    const measuredFrom = firstCheckAt === null ? measuredTo : Math.min(Math.max(opts.from, firstCheckAt), measuredTo);
    return { id, slotMs, firstCheckAt, measuredFrom, measuredTo };
  });
  const bucketMs = opts.bucket === "hour" ? HOUR_MS : DAY_MS;
  const covering = plan.map((p) =>
    mergeWindows(
      windows!.rows.filter((w) => Number(w.monitor_id) === p.id).map((w) => ({ start: Number(w.starts_at), end: Number(w.ends_at) })),
    ),
  );
  const runs = await db.$client.batch(
    plan.map((p, i) => ({
      sql: runsSql(windowCondition(covering[i]!)),
      args: [p.id, p.measuredFrom - p.slotMs, p.measuredTo, p.measuredFrom, bucketMs, p.slotMs],
    })),
    "read",
  );
  return plan.map((p, i) =>
    tallyOf(
      p,
      runs[i]!.rows.map((r) => ({
        first: Number(r.first),
        last: Number(r.last),
        slots: Number(r.slots),
        verdict: aggregate(statusesOf(Number(r.n), Number(r.e), Number(r.d))),
        maintenance: Number(r.m) === 1,
      })),
      covering[i]!,
      opts,
    ),
  );
}

function mergeWindows(ws: { start: number; end: number }[]) {
  const out: { start: number; end: number }[] = [];
  for (const w of [...ws].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

interface Run {
  first: number;
  last: number;
  slots: number;
  verdict: ReturnType<typeof aggregate>;
  maintenance: boolean;
}

function tallyOf(
  p: { id: number; slotMs: number; firstCheckAt: number | null; measuredFrom: number; measuredTo: number },
  runs: Run[],
  windows: { start: number; end: number }[],
  opts: MeasureOptions,
): Measurement {
  const { measuredFrom: lo, measuredTo: hi } = p;
  const total = emptyTally();
  const step = opts.bucket === "hour" ? HOUR_MS : DAY_MS;
  const buckets: MeasureBucket[] = [];
  if (opts.bucket)
    for (let s = Math.floor(opts.from / step) * step; s < opts.to; s += step) {
      const measuredMs = Math.max(0, Math.min(s + step, hi) - Math.max(s, lo));
      buckets.push({ ...emptyTally(), start: s, end: s + step, measuredMs });
    }
  const bucketAt = (t: number) => (opts.bucket ? buckets[Math.floor((t - buckets[0]!.start) / step)] : undefined);

  // Time, cut at maintenance windows and bucket edges.
  const addTime = (a: number, b: number, kind: Kind) => {
    let t = Math.max(a, lo);
    const stop = Math.min(b, hi);
    while (t < stop) {
      const w = windows.find((x) => x.end > t && x.start < stop);
      const inside = w !== undefined && w.start <= t;
      let next = inside ? Math.min(w.end, stop) : Math.min(w?.start ?? stop, stop);
      if (opts.bucket) next = Math.min(next, (Math.floor(t / step) + 1) * step);
      const k = inside ? "maintenance" : kind;
      total[MS_KEY[k]] += next - t;
      const bucket = bucketAt(t);
      if (bucket) bucket[MS_KEY[k]] += next - t;
      t = next;
    }
  };

  let covered = lo;
  runs.forEach((r, i) => {
    const nextStart = runs[i + 1]?.first ?? Number.POSITIVE_INFINITY;
    const runEnd = Math.min(r.last + p.slotMs, nextStart);
    if (r.first > covered) addTime(covered, r.first, "noData");
    const kind: Kind = r.verdict === "error" ? "down" : r.verdict === "degraded" ? "degraded" : "up";
    addTime(r.first, runEnd, kind);
    covered = Math.max(covered, runEnd);
    // A run before measured time only lends its last slot's time; its slots are counted in their own period.
    if (r.first >= lo && r.first < hi) {
      const key = SLOT_KEY[r.maintenance ? "maintenance" : kind];
      total[key] += r.slots;
      const bucket = bucketAt(r.first);
      if (bucket) bucket[key] += r.slots;
    }
  });
  if (covered < hi) addTime(covered, hi, "noData");
  return {
    monitorId: p.id,
    slotMs: p.slotMs,
    firstCheckAt: p.firstCheckAt,
    measuredFrom: lo,
    measuredTo: hi,
    measuredMs: hi - lo,
    ...total,
    buckets,
  };
}

/** A measurement as the API gives it beside a summary's latency series (`MeasuredUptime` in the contract). */
export function measuredUptime(m: Measurement): MeasuredUptime {
  const times = (t: Tally) => ({
    upMs: t.upMs,
    degradedMs: t.degradedMs,
    downMs: t.downMs,
    noDataMs: t.noDataMs,
    maintenanceMs: t.maintenanceMs,
  });
  return {
    firstCheckAt: m.firstCheckAt,
    uptime: uptimeOf(m),
    measuredFrom: m.measuredFrom,
    measuredTo: m.measuredTo,
    measuredMs: m.measuredMs,
    ...times(m),
    buckets: m.buckets.map((b) => ({
      start: b.start,
      uptime: uptimeOf(b),
      measuredFrom: Math.min(Math.max(b.start, m.measuredFrom), b.end),
      measuredTo: Math.max(Math.min(b.end, m.measuredTo), b.start),
      measuredMs: b.measuredMs,
      ...times(b),
    })),
  };
}
