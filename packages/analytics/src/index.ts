export { type ClickHouseAnalytics, type ClickHouseAnalyticsOptions, clickhouseAnalytics, type ExportedResult } from "./clickhouse";
export { AnalyticsEnv } from "./env";
export { AnalyticsUnavailableError } from "./errors";
export { type ExportOptions, type ExportOutcome, exportResults, type ResultSink } from "./export";
export { analyticsFromEnv, createAnalyticsClient, isClickHouse } from "./factory";
export { type LibsqlAnalytics, libsqlAnalytics, type RollupOutcome } from "./libsql";
export type {
  Analytics,
  Bucket,
  DailyUptime,
  DailyUptimeQuery,
  MonitorSeriesPoint,
  MonitorsSeriesQuery,
  SeriesPoint,
  SeriesQuery,
} from "./types";
