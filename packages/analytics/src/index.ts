export { type ClickHouseAnalytics, type ClickHouseAnalyticsOptions, clickhouseAnalytics, type ExportedResult } from "./clickhouse";
export { AnalyticsEnv } from "./env";
export { AnalyticsUnavailableError } from "./errors";
export { type ExportOptions, type ExportOutcome, exportResults, type ResultSink } from "./export";
export { analyticsFromEnv, createAnalyticsClient, isClickHouse } from "./factory";
export { libsqlAnalytics } from "./libsql";
export type { Analytics, Bucket, DailyUptime, DailyUptimeQuery, SeriesPoint, SeriesQuery } from "./types";
