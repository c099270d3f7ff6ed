// Reminders, escalation policies, acknowledgements and dependencies: the shapes the API, YAML and forms share.
import { z } from "zod";

const INTERVAL_RE = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/;
const INTERVAL_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Reminders closer than this would page people more than alert them. */
export const MIN_REMIND_MS = 5 * 60_000;
export const MAX_REMIND_MS = 7 * 86_400_000;

/** The shortest reminder interval; VIGIL_MIN_REMIND_MS lowers it for tests only. */
export function minRemindMs(): number {
  const override = Number(globalThis.process?.env?.VIGIL_MIN_REMIND_MS);
  return Number.isFinite(override) && override > 0 ? override : MIN_REMIND_MS;
}

const remindMessage = () => `must be at least ${minRemindMs() >= 60_000 ? `${minRemindMs() / 60_000} minutes` : `${minRemindMs()} ms`}`;

/** An interval such as "30m", "2h" or "1d" (or milliseconds as a number), at least 5 minutes. */
export const RemindInterval = z
  .union([z.number(), z.string()], { error: 'must be a duration such as "30m" or "2h"' })
  .transform((v, ctx) => {
    let ms: number | undefined;
    if (typeof v === "number") ms = Number.isInteger(v) && v > 0 ? v : undefined;
    else {
      const m = INTERVAL_RE.exec(v.trim());
      if (m) ms = Math.round(Number(m[1]) * INTERVAL_UNIT_MS[m[2] as keyof typeof INTERVAL_UNIT_MS]);
    }
    if (ms === undefined) {
      ctx.addIssue({ code: "custom", message: 'must be a duration such as "30m" or "2h"' });
      return z.NEVER;
    }
    if (ms < minRemindMs()) {
      ctx.addIssue({ code: "custom", message: remindMessage() });
      return z.NEVER;
    }
    if (ms > MAX_REMIND_MS) {
      ctx.addIssue({ code: "custom", message: "must be at most 7 days" });
      return z.NEVER;
    }
    return ms;
  });

/** One interval for every linked channel, or one per channel name (a channel not named gets none). */
const RemindMap = z.record(z.string().min(1), RemindInterval);
export const RemindEvery = z.unknown().transform((v, ctx): number | Record<string, number> => {
  // Not a union: its one message would hide the rule that failed ("must be at least 5 minutes").
  const r = typeof v === "object" && v !== null && !Array.isArray(v) ? RemindMap.safeParse(v) : RemindInterval.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path as (string | number)[] });
  return z.NEVER;
});
export type RemindEvery = z.output<typeof RemindEvery>;

/** A monitor this one depends on: its id, or its key. */
export const DependencyRef = z.union([z.number().int().positive(), z.string().min(1).max(100)], {
  error: "must name a monitor by id or key",
});

/** The monitor fields of this domain, merged into every monitor kind's input. */
export const monitorAlertFields = {
  remindEvery: RemindEvery.nullable().optional(),
  /** An escalation policy's name; null removes it. */
  escalationPolicy: z.string().min(1, "must not be empty").max(100).nullable().optional(),
  dependsOn: z.array(DependencyRef).max(50, "must list at most 50 monitors").optional(),
};

/** The same fields as every monitor response shows them. */
export const monitorAlertOutput = {
  /** Milliseconds, or milliseconds per channel name; null when there are no reminders. */
  remindEvery: z
    .union([z.number().int(), z.record(z.string(), z.number().int())])
    .nullable()
    .optional(),
  escalationPolicy: z.string().nullable().optional(),
  /** Keys of the monitors depended on (their ids when they have no key). */
  dependsOn: z.array(z.union([z.string(), z.number().int()])).optional(),
};

const minutes = z.number({ error: "must be a number of minutes" }).min(0, "must be 0 or more").max(10_080, "must be at most 7 days");

export const EscalationStepInput = z
  .object({
    /** Minutes after the alert, while unacknowledged. Fractions allowed (0.5 = 30 s). */
    afterMinutes: minutes,
    /** Channel names. */
    channels: z.array(z.string().min(1), { error: "must list the channels to notify" }).min(1, "must list at least one channel"),
  })
  .strict();

export const EscalationPolicyInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
    steps: z
      .array(EscalationStepInput, { error: "must list the steps" })
      .min(1, "must have at least one step")
      .max(20, "must have at most 20 steps"),
    /** Minutes between repeats of the last step while still unacknowledged; null: once. */
    repeatLastEveryMinutes: z.number().min(1, "must be at least 1 minute").max(10_080, "must be at most 7 days").nullable().default(null),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (let i = 1; i < p.steps.length; i++)
      if (p.steps[i]!.afterMinutes < p.steps[i - 1]!.afterMinutes)
        ctx.addIssue({ code: "custom", path: ["steps", i, "afterMinutes"], message: "must not be less than the previous step's" });
  });
export type EscalationPolicyInput = z.infer<typeof EscalationPolicyInput>;

export const EscalationPolicy = z.object({
  id: z.number().int(),
  name: z.string(),
  steps: z.array(z.object({ afterMinutes: z.number(), channels: z.array(z.string()) })),
  repeatLastEveryMinutes: z.number().nullable(),
  monitors: z.array(z.number().int()),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;
export const EscalationPolicyList = z.object({ policies: z.array(EscalationPolicy) });

/** POST /v1/monitors/:id/ack and /v1/incidents/:id/ack */
export const AckInput = z.object({ via: z.enum(["api", "cli"]).default("api") }).strict();

/** An acknowledgement as the incident and the API show it. */
export const Acknowledgement = z.object({
  eventId: z.number().int(),
  monitorId: z.number().int(),
  incidentId: z.number().int().nullable(),
  actor: z.string(),
  via: z.enum(["dashboard", "api", "cli", "link"]),
  createdAt: z.number().int(),
});
export type Acknowledgement = z.infer<typeof Acknowledgement>;
