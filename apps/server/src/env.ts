import { AnalyticsEnv } from "@vigil/analytics";
import { env, serviceEnv, z } from "@vigil/config";
import { NotifierEnv } from "@vigil/notifier";

export const ServerEnv = z.object({
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  ...serviceEnv(3001),
  TRUSTED_PROXIES: env.TRUSTED_PROXIES,
  PROBE_WAIT_MS: z.coerce.number().int().min(1000).max(120_000).default(25_000),
  QUEUE_PREFIX: env.QUEUE_PREFIX,
});
export type ServerEnv = z.infer<typeof ServerEnv>;
