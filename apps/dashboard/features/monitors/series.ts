import { AnalyticsUnavailableError, type SeriesPoint } from "@vigil/analytics";
import { type LocationState, type MonitorChart, measure, monitorChart, uptimeOf } from "@vigil/core";
import { getAnalytics } from "../../lib/analytics";
import { getDb } from "../../lib/db";
import { duration } from "../../lib/format";
import { log } from "../../lib/log";

const H = 3_600_000;
const D = 24 * H;

const PALETTE = ["#4f46e5", "#059669", "#d97706", "#db2777", "#0891b2", "#7c3aed"];
/** The chart colour of the i-th location. */
export const colorOf = (i: number) => PALETTE[i % PALETTE.length]!;

/** The chart's ranges; each starts no earlier than the monitor's first check. */
export const RANGES = {
  "1h": { label: "1 hour", ms: H },
  "24h": { label: "24 hours", ms: D },
  "7d": { label: "7 days", ms: 7 * D },
  "30d": { label: "30 days", ms: 30 * D },
} as const satisfies Record<string, { label: string; ms: number }>;
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
}

/** Hourly series of the last 24 h for each monitor of a page (all locations together), in one query. */
export async function sparklines(ids: readonly number[], now = Date.now()): Promise<Map<number, Spark> | null> {
  const to = Math.floor(now / H) * H + H;
  return guarded("sparklines", async () => {
    const points = await getAnalytics().seriesOfMonitors({ monitorIds: [...ids], from: to - D, to, bucket: "hour" });
    const byMonitor = new Map<number, SeriesPoint[]>(ids.map((id) => [id, []]));
    for (const p of points) byMonitor.get(p.monitorId)?.push(p);
    return new Map(
      [...byMonitor].map(([id, s]) => [
        id,
        // An hour whose every check failed has no latency: a break in the line, not the time a refusal took.
        { points: s.map((p) => ({ t: p.start, p50: p.error === p.total ? null : p.p50, errors: p.error })) },
      ]),
    );
  });
}

/**
 * A monitor's latency chart over the range, from libSQL's results (kept for the workspace's retention
 * whatever the analytics store): failures as bands and counts, never as latency points.
 */
export const latencyChart = (workspaceId: number, monitorId: number, locations: readonly LocationState[], range: Range, now = Date.now()) =>
  monitorChart(getDb(), workspaceId, monitorId, locations, RANGES[range].ms, now);

/** Where the chart's measured time starts: its window, or the monitor's first check when that is later. */
export const measuredStart = (c: MonitorChart) => Math.max(c.from, c.measuredFrom ?? c.from);

/** The chart in words, for people who cannot see it and as its caption: checks, failures, p50, gaps. */
export function chartSummary(c: MonitorChart): string {
  const { checks, failed, degraded, p50, noDataMs } = c.summary;
  const from = measuredStart(c);
  const since = `${new Date(from).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return [
    `Since ${since} (${duration(c.to - from)}): ${checks} check${checks === 1 ? "" : "s"}`,
    `${failed} failed`,
    degraded > 0 ? `${degraded} degraded` : null,
    `p50 ${p50 === null ? "—" : `${p50} ms`} of the checks that did not fail`,
    noDataMs > 0 ? `no data for ${duration(noDataMs)}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Share of the chart's checks that did not fail, or null without any. */
/**
 * Each monitor's uptime over the `ms` before now from core's measurement (slot verdicts over measured time, the
 * SLA's figure): null when nothing was counted (no data, or only maintenance).
 */
export async function measuredUptimes(ids: readonly number[], ms: number, now = Date.now()): Promise<Map<number, number | null>> {
  if (ids.length === 0) return new Map();
  const measured = await measure(getDb(), ids, { from: now - ms, to: now, nowMs: now });
  return new Map(measured.map((m) => [m.monitorId, uptimeOf(m)]));
}
