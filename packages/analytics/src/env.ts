import { env } from "@vigil/config";
import { z } from "zod";

/** Analytics settings; apps spread `AnalyticsEnv.shape` into their own env schema. */
export const AnalyticsEnv = z.object({
  /** ClickHouse HTTP endpoint (compose: http://analytics:8123, host :7181). Unset: results are read from libSQL. */
  ANALYTICS_URL: env.url().optional(),
  /** Password (token) of the ClickHouse user the apps use. */
  ANALYTICS_API_KEY: z.string().optional(),
  ANALYTICS_USER: z.string().min(1, "must not be empty").default("default"),
  ANALYTICS_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be letters, digits or underscores")
    .default("vigil"),
});
export type AnalyticsEnv = z.infer<typeof AnalyticsEnv>;
