import { type ClickHouseClient, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import type { Db } from "@vigil/db-schema";
import { type ClickHouseAnalytics, clickhouseAnalytics } from "./clickhouse";
import type { AnalyticsEnv } from "./env";
import { displayHost } from "./errors";
import { type LibsqlAnalytics, libsqlAnalytics } from "./libsql";
import type { Analytics } from "./types";

/** A client for the configured ClickHouse; reads give up after 10 s so a page never hangs on it. */
export function createAnalyticsClient(env: AnalyticsEnv & { ANALYTICS_URL: string }): ClickHouseClient {
  return createClient({
    url: env.ANALYTICS_URL,
    username: env.ANALYTICS_USER,
    password: env.ANALYTICS_API_KEY ?? "",
    request_timeout: 10_000,
    max_open_connections: 10,
    // Failures reach the caller as AnalyticsUnavailableError and are logged there, once, without the client's dump.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** ClickHouse when ANALYTICS_URL is set, otherwise the libSQL table. */
export function analyticsFromEnv(db: Db, env: AnalyticsEnv): LibsqlAnalytics | ClickHouseAnalytics {
  if (!env.ANALYTICS_URL) return libsqlAnalytics(db);
  const url = env.ANALYTICS_URL;
  return clickhouseAnalytics({
    client: createAnalyticsClient({ ...env, ANALYTICS_URL: url }),
    db,
    database: env.ANALYTICS_DATABASE,
    where: displayHost(url),
  });
}

/** The ClickHouse backend, if that is what `analytics` is (the exporter needs one). */
export function isClickHouse(analytics: Analytics): analytics is ClickHouseAnalytics {
  return (analytics as Partial<ClickHouseAnalytics>).backend === "clickhouse";
}
