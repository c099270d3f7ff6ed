import { AnalyticsEnv } from "@vigil/analytics";
import { env, parseEnv, z } from "@vigil/config";
import { mailTransport, NotifierEnv } from "@vigil/notifier";

/** Everything the status page reads from its environment. */
export const StatusPageEnv = z.object({
  VIGIL_METRICS_TOKEN: env.VIGIL_METRICS_TOKEN,
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  LOG_LEVEL: env.LOG_LEVEL,
  /** Signs the access cookie of password-protected pages (shared with the dashboard). */
  AUTH_SECRET: z.string().min(16, "must be at least 16 characters (generate one with: openssl rand -base64 32)"),
  /** A Redis shared with the other processes (the server's): rate limits count there. Unset: in this process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional(),
  /** Must match the server's QUEUE_PREFIX when that is set. */
  QUEUE_PREFIX: env.QUEUE_PREFIX,
  /** Proxies whose X-Forwarded-For names the client (rate limits, password lockout); every other sender is its socket address. */
  TRUSTED_PROXIES: env.TRUSTED_PROXIES,
  /** Where visitors reach this site: links in subscriber mail. */
  PUBLIC_URL: env.url("http://127.0.0.1:3003").transform((u) => u.replace(/\/+$/, "")),
});
export type StatusPageEnv = z.infer<typeof StatusPageEnv>;

/** Rules across variables, as [variable, rule] or null. */
export function crossCheck(e: StatusPageEnv): [string, string] | null {
  if (mailTransport(e) !== null && e.EMAIL_FROM === undefined)
    return ["EMAIL_FROM", "is required when SMTP_URL or EMAIL_PROVIDER_API_KEY is set"];
  return null;
}

let cached: StatusPageEnv | undefined;
/** The parsed environment; instrumentation.ts has already stopped the process if it is invalid. */
export function getEnv(): StatusPageEnv {
  cached ??= parseEnv(StatusPageEnv);
  return cached;
}
