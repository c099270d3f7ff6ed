import { CHECK_KINDS, type CheckDefinition, type CheckKindName, checkKinds, HeaderMap, httpUrl, kindOf } from "@vigil/checks/contract";
import { z } from "zod";
import { monitorAlertFields } from "./alerts";
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

export const OpenTelemetry = z.object({
  endpoint: httpUrl("OTLP/HTTP").describe("OTLP/HTTP metrics endpoint, e.g. http://otel:4318/v1/metrics"),
  headers: HeaderMap.default({}),
});

export const MAX_TAGS = 20;
/** A label to group and filter monitors by, e.g. `prod` or `team:payments`. */
export const Tag = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(40, "must be at most 40 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}._:/-]*$/u, "must be letters, digits and . _ : / - (no spaces), starting with a letter or digit");

/** A count of consecutive checks: 1 to 100. */
export const Threshold = z.number().int("must be a whole number").min(1, "must be 1-100").max(100, "must be 1-100");

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
  tags: z
    .array(Tag)
    .max(MAX_TAGS, `must list at most ${MAX_TAGS} tags`)
    .default([])
    .transform((t) => [...new Set(t)]),
  frequency: Frequency,
  active: z.boolean().default(true),
  public: z.boolean().default(false),
  regions: z.array(Region).min(1, "must list at least one region").max(40),
  retry: z.number().int("must be a whole number").min(0, "must be 0-10").max(10, "must be 0-10").default(3),
  /** Consecutive failed checks (each after its retries) before a location votes error; 1 alerts on the first. */
  failureThreshold: Threshold.default(1),
  /** Consecutive good checks before a location that voted error stops doing so. */
  successThreshold: Threshold.default(1),
  timeout: timeout.default(45_000),
  degradedAfter: timeout.optional(),
  openTelemetry: OpenTelemetry.optional(),
  /** Names of the workspace's notification channels to alert. */
  channels: z.array(z.string().min(1)).optional(),
  ...monitorAlertFields,
};

type Kinds = typeof checkKinds;

/** A kind's monitor: the common fields plus the kind's own (`request`, maybe more), nothing else. */
// A kind's own fields replace common ones of the same name (a heartbeat's `regions` must stay empty).
type InputShape<K extends CheckKindName> = Omit<typeof common, keyof Kinds[K]["input"]> & { kind: z.ZodLiteral<K> } & Kinds[K]["input"];
const monitorInputOf = <K extends CheckKindName>(k: Kinds[K]) =>
  z.object({ ...common, kind: z.literal(k.kind as K), ...(k.input as Kinds[K]["input"]) } as unknown as InputShape<K>).strict();
type MonitorInputs = { [K in CheckKindName]: ReturnType<typeof monitorInputOf<K>> };
const monitorInputs = Object.fromEntries(Object.values(checkKinds).map((k) => [k.kind, monitorInputOf(k)])) as unknown as MonitorInputs;

export const HttpMonitorInput = monitorInputs.http;
export const TcpMonitorInput = monitorInputs.tcp;
export const HeartbeatMonitorInput = monitorInputs.heartbeat;

/** Guesses `kind` when it is omitted from the keys of `request` (`url` means http, `host` means tcp). */
function inferKind(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "kind" in input) return input;
  const req = (input as { request?: unknown }).request;
  if (typeof req !== "object" || req === null) return input;
  const kind = Object.values(checkKinds).find((k) => k.requestKey in req);
  return kind ? { ...input, kind: kind.kind } : input;
}

type AnyMonitorInput = MonitorInputs[CheckKindName];
/** One monitor, as the API, the YAML file and the dashboard form accept it. */
export const MonitorInput = z.preprocess(
  inferKind,
  z.discriminatedUnion("kind", Object.values(monitorInputs) as [AnyMonitorInput, ...AnyMonitorInput[]], {
    error: `kind must be one of ${CHECK_KINDS.join(", ")}`,
  }),
);
export type MonitorInput = z.infer<typeof MonitorInput>;
export type MonitorInputRaw = z.input<typeof MonitorInput>;

/** The check a probe runs for a monitor. */
export function toCheckDefinition(m: MonitorInput): CheckDefinition {
  const base = { timeoutMs: m.timeout, degradedAfterMs: m.degradedAfter, retry: m.retry };
  return { kind: m.kind, ...kindOf(m.kind).toCheck(m), ...base } as CheckDefinition;
}

/**
 * What a monitor's `url` is in alerts, in its kind's words (the request URL for HTTP, host:port for TCP…),
 * from its stored columns, or from a monitor as the API shows it (with its `request`).
 */
export function monitorTarget(m: { kind: CheckKindName } & object): string {
  const kind = kindOf(m.kind);
  const request = (m as { request?: unknown }).request;
  if (typeof request !== "object" || request === null) return kind.target(m);
  // Only where it goes matters here: headers (stored secrets show as ***) are left out.
  return kind.target(kind.toRow({ assertions: [], ...m, request: { ...request, headers: {} } } as never));
}
