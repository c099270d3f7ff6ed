import { z } from "zod";
import { checkBase, defineCheckKind } from "../kind";
import { cronError, timezoneError } from "./schedule";

export { cronError, nextCronTime, nextExpected, type Schedule, timezoneError } from "./schedule";

/** A heartbeat is never run by a probe: its job pings the server. The check exists so every kind has one. */
export const HeartbeatCheck = z.object({ kind: z.literal("heartbeat"), ...checkBase });
export type HeartbeatCheck = z.infer<typeof HeartbeatCheck>;

const SECOND = 1000;
const DAY = 86_400_000;
const UNIT_MS = { ms: 1, s: SECOND, m: 60_000, h: 3_600_000, d: DAY } as const;
const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const HELP = 'must be milliseconds or a duration such as "30s", "5m", "1h" or "1d"';

/** Milliseconds, or "30s", "5m", "2h", "1d"; between 1 s and 31 d. */
const span = z.union([z.number(), z.string()], { error: HELP }).transform((v, ctx) => {
  const m = typeof v === "string" ? DURATION_RE.exec(v.trim()) : null;
  const ms = typeof v === "number" ? v : m ? Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]) : Number.NaN;
  if (!Number.isInteger(ms)) ctx.addIssue({ code: "custom", message: HELP });
  else if (ms < SECOND || ms > 31 * DAY) ctx.addIssue({ code: "custom", message: "must be between 1s and 31d" });
  else return ms;
  return z.NEVER;
});

/**
 * When the job must ping: every `period`, or at each `cron` instant (5 fields) in `timezone`; late by
 * more than `grace`, it is down. Durations come out in milliseconds.
 */
export const HeartbeatRequest = z
  .object({
    period: span.optional(),
    cron: z.string().trim().min(1, "must not be empty").optional(),
    timezone: z.string().trim().optional(),
    grace: span.default(60_000),
  })
  .strict()
  .superRefine((r, ctx) => {
    if ((r.period === undefined) === (r.cron === undefined))
      ctx.addIssue({ code: "custom", path: [r.cron === undefined ? "period" : "cron"], message: "give either period or cron, not both" });
    if (r.timezone !== undefined) {
      if (r.cron === undefined) ctx.addIssue({ code: "custom", path: ["timezone"], message: "applies only with cron" });
      const bad = timezoneError(r.timezone);
      if (bad) ctx.addIssue({ code: "custom", path: ["timezone"], message: bad });
    }
    if (r.cron !== undefined && (r.timezone === undefined || !timezoneError(r.timezone))) {
      const bad = cronError(r.cron, r.timezone);
      if (bad) ctx.addIssue({ code: "custom", path: ["cron"], message: `is not a valid cron expression: ${bad}` });
    }
  });
export type HeartbeatRequest = z.output<typeof HeartbeatRequest>;

interface HeartbeatColumns {
  hbPeriodMs: number | null;
  hbGraceMs: number | null;
  hbCron: string | null;
  hbTimezone: string | null;
}

/** Where the server answers pings; each app sets it from PING_BASE_URL at start, so alerts name the ping URL. */
export const pingEndpoint = { base: "http://127.0.0.1:3001" };
export const pingUrlOf = (token = "") => `${pingEndpoint.base.replace(/\/+$/, "")}/ping/${token}`;

const noProbe = "a heartbeat is watched by the server from its pings, not run by probes";

export const heartbeat = defineCheckKind({
  kind: "heartbeat",
  check: HeartbeatCheck,
  input: {
    request: HeartbeatRequest,
    // The probe's fields do not apply: only their neutral values pass, so a copied http entry is told why.
    frequency: z.literal("1h", { error: `must be left out: ${noProbe}` }).default("1h"),
    regions: z
      .array(z.unknown())
      .max(0, `must be empty: ${noProbe}`)
      .default([])
      .transform((): never[] => []),
    retry: z.literal(0, { error: "must be left out: retries do not apply to a heartbeat, its deadline is the rule" }).default(0),
  },
  output: { request: HeartbeatRequest },
  requestKey: "period",
  exampleRequest: { period: "1m" },
  requestOrder: ["period", "cron", "timezone", "grace"],
  requestAlternatives: [["period"], ["cron", "timezone"]],
  serverSide: true,
  toCheck: () => ({}),
  toRow: (m): HeartbeatColumns => ({
    hbPeriodMs: m?.request.period ?? null,
    hbGraceMs: m ? m.request.grace : null,
    hbCron: m?.request.cron ?? null,
    hbTimezone: m?.request.cron !== undefined ? (m.request.timezone ?? "UTC") : null,
  }),
  fromRow: (row: HeartbeatColumns) => ({
    request:
      row.hbCron !== null
        ? { cron: row.hbCron, timezone: row.hbTimezone ?? "UTC", grace: row.hbGraceMs ?? 60_000 }
        : { period: row.hbPeriodMs ?? 60_000, grace: row.hbGraceMs ?? 60_000 },
  }),
  target: () => pingUrlOf(),
  attributes: () => ({}),
});
