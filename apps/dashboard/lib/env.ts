import { AnalyticsEnv } from "@vigil/analytics";
import { pingEndpoint } from "@vigil/api-contract";
import { env, parseEnv, z } from "@vigil/config";
import { DomainRules, InstanceRulesEnv } from "@vigil/core";
import { EgressPolicy } from "@vigil/egress";
import { mailTransport, NotifierEnv } from "@vigil/notifier";

const optional = z.string().min(1).optional();
const secret = z.string().min(16, "must be at least 16 characters (generate one with: openssl rand -base64 32)");

/** Everything the dashboard reads from its environment. */
export const DashboardEnv = z.object({
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  /** VIGIL_ADMIN_EMAILS, VIGIL_SIGNUP, VIGIL_SIGNUP_LIMITS: who runs the instance and who may sign up. */
  ...InstanceRulesEnv,
  NODE_ENV: z.string().default("development"),
  DATABASE_URL: env.DATABASE_URL,
  PING_BASE_URL: env.PING_BASE_URL,
  PUBLIC_DATABASE_URL: env.PUBLIC_DATABASE_URL,
  DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN,
  VIGIL_SECRET_KEY: env.VIGIL_SECRET_KEY,
  VIGIL_METRICS_TOKEN: env.VIGIL_METRICS_TOKEN,
  LOG_LEVEL: env.LOG_LEVEL,
  AUTH_SECRET: secret,
  /** Rotation (Auth.js's own): the highest-numbered one set signs, every one set still verifies. */
  AUTH_SECRET_1: secret.optional(),
  AUTH_SECRET_2: secret.optional(),
  AUTH_SECRET_3: secret.optional(),
  /** The dashboard's public URL; every link it mails or shows points here (else DASHBOARD_URL). Never the request's host. */
  AUTH_URL: env.url().optional(),
  AUTH_GITHUB_ID: optional,
  AUTH_GITHUB_SECRET: optional,
  /** GitHub Enterprise Server (e.g. https://github.example.com): GitHub sign-in goes there instead of github.com. */
  AUTH_GITHUB_ENTERPRISE_URL: env
    .url()
    .transform((u) => u.replace(/\/+$/, ""))
    .optional(),
  AUTH_GOOGLE_ID: optional,
  AUTH_GOOGLE_SECRET: optional,
  /** Generic OpenID Connect sign-in (Keycloak, Authentik, Okta, Entra ID, Google Workspace): the issuer URL. */
  AUTH_OIDC_ISSUER: env.url().optional(),
  AUTH_OIDC_ID: optional,
  AUTH_OIDC_SECRET: optional,
  /** The button's name on the sign-in page ("Continue with …"). */
  AUTH_OIDC_NAME: z.string().trim().min(1).max(40, "must be at most 40 characters").default("SSO"),
  /** `example.com=<workspaceId>:viewer|member`, comma-separated: OIDC users of that domain join that workspace. */
  AUTH_OIDC_DOMAIN_RULES: z.string().default("").pipe(DomainRules),
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

/** Rules across variables, as [variable, rule] or null; `raw` tells a set DASHBOARD_URL from its default. */
export function crossCheck(e: DashboardEnv, raw: Record<string, string | undefined> = process.env): [string, string] | null {
  if (e.NODE_ENV === "production" && !e.AUTH_URL && !raw.DASHBOARD_URL)
    return ["AUTH_URL", "is required in production: the dashboard's public URL (e.g. https://vigil.example.com), or set DASHBOARD_URL"];
  if (mailTransport(e) !== null && e.EMAIL_FROM === undefined)
    return ["EMAIL_FROM", "is required when SMTP_URL or EMAIL_PROVIDER_API_KEY is set"];
  if (!!e.AUTH_GITHUB_ID !== !!e.AUTH_GITHUB_SECRET)
    return [e.AUTH_GITHUB_ID ? "AUTH_GITHUB_SECRET" : "AUTH_GITHUB_ID", "must be set together with its pair"];
  if (!!e.AUTH_GOOGLE_ID !== !!e.AUTH_GOOGLE_SECRET)
    return [e.AUTH_GOOGLE_ID ? "AUTH_GOOGLE_SECRET" : "AUTH_GOOGLE_ID", "must be set together with its pair"];
  const oidc = [e.AUTH_OIDC_ISSUER, e.AUTH_OIDC_ID, e.AUTH_OIDC_SECRET];
  if (oidc.some((v) => v) && !oidc.every((v) => v)) {
    const missing = ["AUTH_OIDC_ISSUER", "AUTH_OIDC_ID", "AUTH_OIDC_SECRET"].filter((_, i) => !oidc[i]);
    return [missing[0]!, "must be set together with AUTH_OIDC_ISSUER, AUTH_OIDC_ID and AUTH_OIDC_SECRET"];
  }
  return null;
}

let cached: DashboardEnv | undefined;
/** The parsed environment; instrumentation.ts has already stopped the process if it is invalid. */
export function getEnv(): DashboardEnv {
  if (!cached) {
    cached = parseEnv(DashboardEnv);
    // Heartbeat pages show ping URLs on the server's public address.
    pingEndpoint.base = cached.PING_BASE_URL;
  }
  return cached;
}

/**
 * The one origin every link the dashboard mails or shows is built on (sign-in, invitations), and the only
 * origin a redirect may lead to. Configured, never taken from a request: a client-sent Host or
 * X-Forwarded-Host would otherwise put a genuine sign-in link on the sender's host.
 */
export function publicOrigin(e: DashboardEnv = getEnv()): string {
  return new URL(e.AUTH_URL ?? e.DASHBOARD_URL).origin;
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
