import { AnalyticsUnavailableError, type Bucket, type SeriesPoint } from "@vigil/analytics";
import { type LocationState, resultsSince } from "@vigil/core";
import { getAnalytics } from "../../lib/analytics";
import { getDb } from "../../lib/db";
import { log } from "../../lib/log";

const H = 3_600_000;
const D = 24 * H;

const PALETTE = ["#4f46e5", "#059669", "#d97706", "#db2777", "#0891b2", "#7c3aed"];
/** The chart colour of the i-th location. */
export const colorOf = (i: number) => PALETTE[i % PALETTE.length]!;

export const RANGES = {
  "1h": { label: "1 hour", ms: H, bucket: "hour" },
  "24h": { label: "24 hours", ms: D, bucket: "hour" },
  "7d": { label: "7 days", ms: 7 * D, bucket: "hour" },
  "30d": { label: "30 days", ms: 30 * D, bucket: "day" },
} as const satisfies Record<string, { label: string; ms: number; bucket: Bucket }>;
export type Range = keyof typeof RANGES;
export const rangeOf = (v: unknown): Range => (typeof v === "string" && v in RANGES ? (v as Range) : "24h");

/** The analytics store may be away (ClickHouse down): pages show that instead of failing. */
async function guarded<T>(what: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AnalyticsUnavailableError) {
      log().warn({ err: err.message }, `${what}: analytics unavailable`);
      return null;
    }
    throw err;
  }
}

export interface Spark {
  points: { t: number; p50: number | null; errors: number }[];
  /** 0..1 over the last 24 h, or null without results. */
  uptime: number | null;
}

const uptimeOver = (s: readonly SeriesPoint[]) => {
  const total = s.reduce((n, p) => n + p.total, 0);
  return total === 0 ? null : (total - s.reduce((n, p) => n + p.error, 0)) / total;
};

/** Hourly series of the last 24 h for each monitor of a page (all locations together), in one query. */
export async function sparklines(ids: readonly number[], now = Date.now()): Promise<Map<number, Spark> | null> {
  const to = Math.floor(now / H) * H + H;
  return guarded("sparklines", async () => {
    const points = await getAnalytics().seriesOfMonitors({ monitorIds: [...ids], from: to - D, to, bucket: "hour" });
    const byMonitor = new Map<number, SeriesPoint[]>(ids.map((id) => [id, []]));
    for (const p of points) byMonitor.get(p.monitorId)?.push(p);
    return new Map(
      [...byMonitor].map(([id, s]) => [id, { points: s.map((p) => ({ t: p.start, p50: p.p50, errors: p.error })), uptime: uptimeOver(s) }]),
    );
  });
}

export interface LocationSummary {
  locationId: number;
  name: string;
  region: string;
  uptime: number | null;
  checks: number;
  errors: number;
}

export interface LatencyChartData {
  rows: Record<string, number | null>[];
  locations: LocationSummary[];
  uptime: number | null;
  from: number;
  to: number;
}

/** The last hour check by check: at most a few hundred rows, so read as they are. */
async function lastHour(
  workspaceId: number,
  monitorId: number,
  locations: readonly LocationState[],
  from: number,
  to: number,
): Promise<LatencyChartData> {
  const rows = await resultsSince(getDb(), workspaceId, monitorId, from);
  const index = new Map(locations.map((l, i) => [l.locationId, i]));
  const byT = new Map<number, Record<string, number | null>>();
  for (const r of rows) {
    const i = index.get(r.locationId);
    if (i === undefined) continue;
    const row = byT.get(r.cronTimestamp) ?? { t: r.cronTimestamp };
    row[`latency_${i}`] = r.latencyMs;
    byT.set(r.cronTimestamp, row);
  }
  const summary = (mine: typeof rows) => ({
    checks: mine.length,
    errors: mine.filter((r) => r.status === "error").length,
    uptime: mine.length === 0 ? null : mine.filter((r) => r.status !== "error").length / mine.length,
  });
  return {
    rows: [...byT.values()],
    locations: locations.map((l) => ({
      locationId: l.locationId,
      name: l.name,
      region: l.region,
      ...summary(rows.filter((r) => r.locationId === l.locationId)),
    })),
    uptime: summary(rows.filter((r) => index.has(r.locationId))).uptime,
    from,
    to,
  };
}

/**
 * p50 / p95 / p99 per location over the range, from the store's pre-aggregated buckets (one query per
 * location); the 1 h view plots each check instead.
 */
export async function latencyChart(
  workspaceId: number,
  monitorId: number,
  locations: readonly LocationState[],
  range: Range,
  now = Date.now(),
) {
  const { ms, bucket } = RANGES[range];
  const to = now;
  const from = now - ms;
  if (range === "1h") return lastHour(workspaceId, monitorId, locations, from, to);
  return guarded("latency chart", async (): Promise<LatencyChartData> => {
    const a = getAnalytics();
    const per = await Promise.all(locations.map((l) => a.series({ monitorId, from, to, bucket, locationId: l.locationId })));
    const byT = new Map<number, Record<string, number | null>>();
    per.forEach((series, i) => {
      for (const p of series) {
        const row = byT.get(p.start) ?? { t: p.start };
        row[`p50_${i}`] = p.p50;
        row[`p95_${i}`] = p.p95;
        row[`p99_${i}`] = p.p99;
        byT.set(p.start, row);
      }
    });
    const all = per.flat();
    return {
      rows: [...byT.values()].sort((x, y) => Number(x.t) - Number(y.t)),
      locations: locations.map((l, i) => ({
        locationId: l.locationId,
        name: l.name,
        region: l.region,
        uptime: uptimeOver(per[i]!),
        checks: per[i]!.reduce((n, p) => n + p.total, 0),
        errors: per[i]!.reduce((n, p) => n + p.error, 0),
      })),
      uptime: uptimeOver(all),
      from,
      to,
    };
  });
}
