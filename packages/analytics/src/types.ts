export type Bucket = "hour" | "day";
export const BUCKET_MS: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000 };

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
  /** Latency percentiles by nearest rank (the value at rank ceil(p·n) of the sorted latencies), ms. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface MonitorsSeriesQuery {
  monitorIds: number[];
  from: number; // ms, inclusive
  to: number; // ms, exclusive
  bucket: Bucket;
}

/** A bucket of one of several monitors' series (all locations together). */
export interface MonitorSeriesPoint extends SeriesPoint {
  monitorId: number;
}

export interface DailyUptimeQuery {
  monitorIds: number[];
  from: number; // ms, inclusive
  to: number; // ms, exclusive
}

/** One monitor's results over one UTC day, all locations together. */
export interface DailyUptime {
  monitorId: number;
  /** Day start (00:00 UTC), ms since epoch. */
  day: number;
  total: number;
  success: number;
  degraded: number;
  error: number;
  /** Share of checks that did not end in error, 0..1. */
  uptime: number;
}

/** The results store behind status pages and the dashboard. */
export interface Analytics {
  readonly backend: "libsql" | "clickhouse";
  /** One monitor's series in hour or day buckets (only buckets that have results), oldest first. */
  series(q: SeriesQuery): Promise<SeriesPoint[]>;
  /** Several monitors' series at once (a page of the monitor list), all locations together; by monitor, then time. */
  seriesOfMonitors(q: MonitorsSeriesQuery): Promise<MonitorSeriesPoint[]>;
  /** Per-day uptime of many monitors at once (a status page's 90-day bars); only days with results, by monitor then day. */
  dailyUptime(q: DailyUptimeQuery): Promise<DailyUptime[]>;
  /** Deletes a workspace's results older than `cutoff` (ms); returns how many went. */
  deleteBefore(workspaceId: number, cutoff: number): Promise<number>;
}

export const uptimeOf = (total: number, error: number) => (total === 0 ? 1 : (total - error) / total);
