import { AnalyticsEnv } from "@vigil/analytics";
import { env, z } from "@vigil/config";
import { NotifierEnv } from "@vigil/notifier";

export const ServerEnv = z.object({
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  PORT: env.port(3001),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  VIGIL_SECRET_KEY: env.VIGIL_SECRET_KEY,
  REDIS_URL: env.REDIS_URL,
  LOG_LEVEL: env.LOG_LEVEL,
  PING_BASE_URL: env.PING_BASE_URL,
  TRUSTED_PROXIES: env.TRUSTED_PROXIES,
  PROBE_WAIT_MS: z.coerce.number().int().min(1000).max(120_000).default(25_000),
  /** Namespaces queues and pub/sub. Unset: named after the database's install id, so installs sharing a Redis never mix. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be lowercase letters, digits or dashes")
    .optional(),
});
export type ServerEnv = z.infer<typeof ServerEnv>;
