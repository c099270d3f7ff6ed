import { z } from "zod";
import { Assertion } from "./assertions";
import type { CheckDefinition } from "./check";
import { Frequency, Region } from "./common";

const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** Milliseconds as a number, or a duration string such as "800ms", "45s", "1m". */
export const Duration = z
  .union([z.number(), z.string()], { error: 'must be milliseconds or a duration such as "800ms", "45s" or "1m"' })
  .transform((v, ctx) => {
    if (typeof v === "number") {
      if (!Number.isInteger(v) || v <= 0) {
        ctx.addIssue({ code: "custom", message: "must be a positive whole number of milliseconds" });
        return z.NEVER;
      }
      return v;
    }
    const m = DURATION_RE.exec(v.trim());
    if (!m) {
      ctx.addIssue({ code: "custom", message: 'must be milliseconds or a duration such as "800ms", "45s" or "1m"' });
      return z.NEVER;
    }
    const out = Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
    if (out <= 0) {
      ctx.addIssue({ code: "custom", message: "must be more than 0" });
      return z.NEVER;
    }
    return out;
  });

export const MAX_TIMEOUT_MS = 120_000;
const timeout = Duration.pipe(z.number().max(MAX_TIMEOUT_MS, `must be at most ${MAX_TIMEOUT_MS / 1000}s`));

const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be a valid HTTP header name");

/** Header names whose values are credentials however they are spelled; the user may mark more. */
const SECRET_HEADER_RE =
  /^(authorization|proxy-authorization|cookie|x-api-key)$|token|secret|passw|api-?key|session|signature|credential|auth/i;

/** Whether a request header's value is a secret: by its name, or because the user marked it. */
export function isSecretHeader(name: string, marked: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADER_RE.test(name) || marked.some((m) => m.toLowerCase() === lower);
}

/** What every response shows in place of a secret value; sending it back keeps the stored one. */
export const REDACTED = "***";

const HeaderMap = z.record(HeaderName, z.string().regex(/^[^\r\n]*$/, "must not contain line breaks"));

const httpUrl = (what: string) =>
  z
    .string()
    .url(`must be a ${what} URL`)
    .refine((u) => !URL.canParse(u) || /^https?:$/.test(new URL(u).protocol), `must be an http:// or https:// ${what} URL`);

export const OpenTelemetry = z.object({
  endpoint: httpUrl("OTLP/HTTP").describe("OTLP/HTTP metrics endpoint, e.g. http://otel:4318/v1/metrics"),
  headers: HeaderMap.default({}),
});

export const HttpRequest = z.object({
  url: httpUrl("target"),
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(
      z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"], {
        error: "must be GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS",
      }),
    )
    .default("GET"),
  headers: HeaderMap.default({}),
  /** More header names to treat as secrets (never shown back); authorization, cookie, *token*… always are. */
  secretHeaders: z.array(HeaderName).max(50, "must list at most 50 headers").optional(),
  body: z.string().max(65_536, "must be at most 64 KiB").optional(),
  followRedirects: z.boolean().default(true),
});

const HOST_RE = /^(?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/;
export const TcpRequest = z.object({
  host: z
    .string()
    .regex(HOST_RE, "must be a hostname or an IP address")
    .transform((h) => h.replace(/^\[(.*)\]$/, "$1")),
  port: z.number().int("must be a whole number").min(1, "must be 1-65535").max(65535, "must be 1-65535"),
});

const common = {
  /** The YAML entry key; unique per workspace. */
  key: z
    .string()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .regex(/^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u, "must not start or end with a space or hold control characters")
    .optional(),
  name: z.string().max(200, "must be at most 200 characters").optional(),
  description: z.string().max(2000, "must be at most 2000 characters").default(""),
  frequency: Frequency,
  active: z.boolean().default(true),
  public: z.boolean().default(false),
  regions: z.array(Region).min(1, "must list at least one region").max(40),
  retry: z.number().int("must be a whole number").min(0, "must be 0-10").max(10, "must be 0-10").default(3),
  timeout: timeout.default(45_000),
  degradedAfter: timeout.optional(),
  openTelemetry: OpenTelemetry.optional(),
  /** Names of the workspace's notification channels to alert. */
  channels: z.array(z.string().min(1)).optional(),
};

export const HttpMonitorInput = z
  .object({
    ...common,
    kind: z.literal("http"),
    request: HttpRequest,
    assertions: z.array(Assertion).max(20, "must have at most 20 assertions").default([]),
  })
  .strict();

export const TcpMonitorInput = z
  .object({
    ...common,
    kind: z.literal("tcp"),
    request: TcpRequest,
  })
  .strict();

/** Guesses `kind` when it is omitted: a `request.url` means http, `request.host` means tcp. */
function inferKind(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "kind" in input) return input;
  const req = (input as { request?: unknown }).request;
  if (typeof req === "object" && req !== null) {
    if ("url" in req) return { ...input, kind: "http" };
    if ("host" in req) return { ...input, kind: "tcp" };
  }
  return input;
}

/** One monitor, as the API, the YAML file and the dashboard form accept it. */
export const MonitorInput = z.preprocess(
  inferKind,
  z.discriminatedUnion("kind", [HttpMonitorInput, TcpMonitorInput], { error: "kind must be http or tcp" }),
);
export type MonitorInput = z.infer<typeof MonitorInput>;
export type MonitorInputRaw = z.input<typeof MonitorInput>;

/** The check a probe runs for a monitor. */
export function toCheckDefinition(m: MonitorInput): CheckDefinition {
  const base = { timeoutMs: m.timeout, degradedAfterMs: m.degradedAfter, retry: m.retry };
  if (m.kind === "tcp") return { kind: "tcp", host: m.request.host, port: m.request.port, ...base };
  return {
    kind: "http",
    url: m.request.url,
    method: m.request.method,
    headers: m.request.headers,
    body: m.request.body,
    followRedirects: m.request.followRedirects,
    assertions: m.assertions,
    ...base,
  };
}

/** What a monitor's `url` is in alerts: the request URL for HTTP, host:port for TCP. */
export function monitorTarget(m: { kind: "http" | "tcp"; url?: string | null; host?: string | null; port?: number | null }): string {
  if (m.kind === "http") return m.url ?? "";
  const host = m.host ?? "";
  return `${host.includes(":") ? `[${host}]` : host}:${m.port ?? ""}`;
}
