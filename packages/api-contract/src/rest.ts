import { type CheckKindName, CheckResult, checkKinds } from "@vigil/checks/contract";
import { z } from "zod";
import { monitorAlertOutput } from "./alerts";
import { Frequency, Region } from "./common";
import { MonitorInput, OpenTelemetry, Tag } from "./monitor";

// ── Monitors over REST (/v1/monitors) ────────────────────────────────────────

export const MONITOR_STATUSES = ["active", "degraded", "error"] as const;
export const MONITOR_HEALTH = ["ok", "degraded", "error", "paused", "no-probe", "no-data"] as const;
export type MonitorHealth = (typeof MONITOR_HEALTH)[number];

const monitorCommon = {
  id: z.number().int(),
  key: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  frequency: Frequency,
  active: z.boolean(),
  public: z.boolean(),
  regions: z.array(Region),
  retry: z.number().int(),
  failureThreshold: z.number().int(),
  successThreshold: z.number().int(),
  /** milliseconds */
  timeout: z.number().int(),
  /** milliseconds */
  degradedAfter: z.number().int().nullable(),
  openTelemetry: OpenTelemetry.nullable(),
  channels: z.array(z.string()),
  ...monitorAlertOutput,
  status: z.enum(MONITOR_STATUSES),
  /**
   * What a person should read: `ok`/`degraded`/`error` from the status; `paused` when inactive;
   * `no-probe` when no private location serves any of its regions (it is never checked);
   * `no-data` when every location serving it is offline (no alert either way until one reports).
   */
  health: z.enum(MONITOR_HEALTH),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
};

/** A stored monitor as every REST response shows it. OTLP header values are redacted ("***"). */
const monitorOf = <K extends CheckKindName>(k: (typeof checkKinds)[K]) =>
  z.object({ ...monitorCommon, kind: z.literal(k.kind as K), ...(k.output as (typeof checkKinds)[K]["output"]) });
type AnyMonitor = { [K in CheckKindName]: ReturnType<typeof monitorOf<K>> }[CheckKindName];
export const Monitor = z.discriminatedUnion("kind", Object.values(checkKinds).map(monitorOf) as [AnyMonitor, ...AnyMonitor[]]);
export type Monitor = z.infer<typeof Monitor>;

/** PATCH /v1/monitors/:id: merged over the stored monitor, then the whole is checked as a MonitorInput. */
export const MonitorPatch = z.record(z.string(), z.unknown());

/** GET /v1/monitors/:id/summary */
export const MonitorSummaryQuery = z.object({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  bucket: z.enum(["hour", "day"]).default("hour"),
  locationId: z.coerce.number().int().positive().optional(),
});

/** POST /v1/monitors/batch: all or nothing. */
export const MonitorBatchInput = z.object({
  monitors: z.array(MonitorInput).min(1, "must hold at least one monitor").max(1000, "must hold at most 1000 monitors"),
});
export const MonitorBatchOutput = z.object({ monitors: z.array(Monitor) });

/** POST /v1/monitors/apply: make the workspace's keyed monitors match `monitors`. */
/** Monitors one apply takes in one all-or-nothing transaction; `vigil apply` sends a bigger file in pages. */
export const APPLY_MAX = 1000;
export const ApplyInput = z.object({
  monitors: z
    .array(MonitorInput)
    .max(APPLY_MAX, `must hold at most ${APPLY_MAX} monitors (send a bigger file in pages, as vigil apply does)`),
  prune: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  /** Entry keys `prune` keeps although they are not in `monitors`: the other pages of a file applied in pages. */
  keep: z.array(z.string().max(100, "must be at most 100 characters")).max(100_000, "must hold at most 100000 keys").default([]),
});
export const ApplyOutput = z.object({
  create: z.array(z.string()),
  update: z.array(z.string()),
  delete: z.array(z.string()),
  unchanged: z.array(z.string()),
  applied: z.boolean(),
});
export type ApplyOutput = z.infer<typeof ApplyOutput>;

/** POST /v1/private-locations */
export const PrivateLocationInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  region: Region.default("private"),
});

/** GET /v1/whoami */
export const WhoAmI = z.object({
  workspace: z.object({ id: z.number().int(), name: z.string().nullable(), plan: z.string().nullable() }),
  /** `scopes`: what the key may do (read, write, probe-admin); older servers leave it out. */
  apiKey: z.object({ id: z.number().int(), name: z.string(), scopes: z.array(z.string()).optional() }),
});

/** GET /v1/monitors */
export const MonitorList = z.object({ monitors: z.array(Monitor) });
/** GET /v1/monitors?tag=prod&tag=team:payments: only monitors carrying every tag named. */
export const MonitorListQuery = z.object({
  tag: z
    .union([Tag, z.array(Tag)])
    .optional()
    .transform((t) => (t === undefined ? [] : Array.isArray(t) ? t : [t]))
    .describe("repeat to require several tags"),
});

/**
 * GET /v1/sla/monitors/:id and /v1/sla/status-pages/:id: a month or a from/to range (core's reportRange checks
 * them) and the objective in percent. The dashboard's SLA form and downloads read the same fields.
 */
export const SlaQuery = z.object({
  month: z.string().optional().describe("a calendar month, YYYY-MM (UTC); or from/to"),
  from: z.string().optional().describe("range start, YYYY-MM-DD (UTC) or ISO 8601"),
  to: z.string().optional().describe("range end (exclusive), default now; at most 13 months after from"),
  target: z.coerce
    .number({ error: "must be a number" })
    .gt(0, "must be above 0")
    .lt(100, "must be below 100")
    .default(99.9)
    .describe("the objective in percent, default 99.9"),
  format: z.enum(["json", "csv"], { error: "must be json or csv" }).default("json"),
});
export type SlaQuery = z.infer<typeof SlaQuery>;

/** POST /v1/monitors/:id/trigger and /v1/monitors/test: one run on a probe serving the monitor. */
export const RunOutput = z.object({
  location: z.object({ id: z.number().int(), name: z.string(), region: z.string() }),
  result: CheckResult,
});
export type RunOutput = z.infer<typeof RunOutput>;
