import { type Analytics, analyticsFromEnv } from "@vigil/analytics";
import { getDb } from "./db";
import { getEnv } from "./env";

let analytics: Analytics | undefined;
/** The results store (ClickHouse when ANALYTICS_URL is set, else libSQL), created on first use. */
export function getAnalytics(): Analytics {
  analytics ??= analyticsFromEnv(getDb(), getEnv());
  return analytics;
}
