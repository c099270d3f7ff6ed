import { AnalyticsEnv } from "@vigil/analytics";
import { env, parseEnv, z } from "@vigil/config";
import { EgressPolicy } from "@vigil/egress";
import { mailTransport, NotifierEnv } from "@vigil/notifier";

const optional = z.string().min(1).optional();

/** Everything the dashboard reads from its environment. */
export const DashboardEnv = z.object({
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  NODE_ENV: z.string().default("development"),
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  VIGIL_SECRET_KEY: env.VIGIL_SECRET_KEY,
  LOG_LEVEL: env.LOG_LEVEL,
  AUTH_SECRET: z.string().min(16, "must be at least 16 characters (generate one with: openssl rand -base64 32)"),
  /** The dashboard's public URL; links in mail (sign-in, invitations) point here. Unset: the request's host. */
  AUTH_URL: env.url().optional(),
  AUTH_GITHUB_ID: optional,
  AUTH_GITHUB_SECRET: optional,
  AUTH_GOOGLE_ID: optional,
  AUTH_GOOGLE_SECRET: optional,
  /** The workspace `pnpm start` bootstrapped (id or slug): the first person to sign in becomes its owner. */
  LOCAL_WORKSPACE: z
    .string()
    .regex(/^(\d{1,15}|[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?)$/, "must be a workspace id or slug")
    .transform((v) => (/^\d+$/.test(v) ? Number(v) : v))
    .optional(),
  /** Print sign-in links to the log even in production when no mail transport is set (`pnpm start` does). */
  LOG_SIGN_IN_LINKS: z.stringbool({ error: "must be true or false" }).default(false),
  /** Where probes post results (the server), shown in the private-location setup lines. */
  PUBLIC_INGEST_URL: env.url("http://127.0.0.1:3001"),
  /** The server's Redis: "Test now" asks a probe through it. Unset (lite): Test now is unavailable. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional(),
  /** Proxies whose X-Forwarded-For names the client (rate limits per client address). */
  TRUSTED_PROXIES: env.TRUSTED_PROXIES,
  /** Must match the server's QUEUE_PREFIX when that is set. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be lowercase letters, digits or dashes")
    .optional(),
  /** The public status-page site (3003): the editor links each page there. */
  STATUS_PAGE_URL: env.url("http://127.0.0.1:3003").transform((u) => u.replace(/\/+$/, "")),
});
export type DashboardEnv = z.infer<typeof DashboardEnv>;

/** Rules across variables, as [variable, rule] or null. */
export function crossCheck(e: DashboardEnv): [string, string] | null {
  if (mailTransport(e) !== null && e.EMAIL_FROM === undefined)
    return ["EMAIL_FROM", "is required when SMTP_URL or EMAIL_PROVIDER_API_KEY is set"];
  if (!!e.AUTH_GITHUB_ID !== !!e.AUTH_GITHUB_SECRET)
    return [e.AUTH_GITHUB_ID ? "AUTH_GITHUB_SECRET" : "AUTH_GITHUB_ID", "must be set together with its pair"];
  if (!!e.AUTH_GOOGLE_ID !== !!e.AUTH_GOOGLE_SECRET)
    return [e.AUTH_GOOGLE_ID ? "AUTH_GOOGLE_SECRET" : "AUTH_GOOGLE_ID", "must be set together with its pair"];
  return null;
}

let cached: DashboardEnv | undefined;
/** The parsed environment; instrumentation.ts has already stopped the process if it is invalid. */
export function getEnv(): DashboardEnv {
  cached ??= parseEnv(DashboardEnv);
  return cached;
}

let egress: Promise<EgressPolicy> | undefined;
/** What channel tests may not reach: this instance's database, Redis and analytics. */
export function getEgress(): Promise<EgressPolicy> {
  egress ??= EgressPolicy.forInstance(getEnv());
  return egress;
}

/** How sign-in links leave: a mail transport, the log (development only), or nowhere. */
export function signInMail(e: DashboardEnv): "mail" | "log" | "none" {
  if (mailTransport(e) !== null) return "mail";
  return e.NODE_ENV === "production" && !e.LOG_SIGN_IN_LINKS ? "none" : "log";
}
