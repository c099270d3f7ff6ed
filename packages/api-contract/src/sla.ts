// An SLA report as GET /v1/sla/… answers it in JSON; core builds it, the CLI prints it.
import { z } from "zod";

/**
 * The target's allowance over the counted time (up, degraded or down: no data and maintenance left out) and what
 * share of it is left (below 0 once overspent). `allowedFailures` is the same allowance in slots.
 */
const ErrorBudget = z.object({
  allowedFailures: z.number(),
  remaining: z.number(),
  /** (1 − target) × counted time. */
  allowedMs: z.number(),
  /** The down time. */
  usedMs: z.number(),
  /** allowedMs − usedMs; below 0 once overspent. */
  remainingMs: z.number(),
});

/** What was measured, in time: measuredMs = upMs + degradedMs + downMs + noDataMs + maintenanceMs. */
const Measured = {
  /** The later of the range's start and the first check (the earliest of the monitors' for a page). */
  measuredFrom: z.number(),
  /** The earlier of the range's end and now. */
  measuredTo: z.number(),
  /** Measured time (summed over a page's monitors). */
  measuredMs: z.number(),
  upMs: z.number(),
  degradedMs: z.number(),
  downMs: z.number(),
  /** Measured time with no result from any location: neither up nor down. */
  noDataMs: z.number(),
  /** Measured time inside maintenance windows: left out. */
  maintenanceMs: z.number(),
};

export const MonitorSla = z.object({
  monitorId: z.number(),
  monitorName: z.string(),
  /** The monitor's first stored result (its slot time); null when it never reported. */
  firstCheckAt: z.number().nullable(),
  /** Slots counted (with a verdict, outside maintenance windows): the quorum of their locations' results. */
  checks: z.number(),
  /** Slots whose verdict was down. */
  failed: z.number(),
  /** Slots left out because a maintenance window covered their slot time. */
  inMaintenance: z.number(),
  /** Share of counted time not down (degraded counts as up); 1 when nothing was counted (see measuredMs). */
  uptime: z.number(),
  errorBudget: ErrorBudget,
  ...Measured,
});
export type MonitorSla = z.infer<typeof MonitorSla>;

export const SlaReport = z.object({
  from: z.number(),
  to: z.number(),
  /** The objective, e.g. 0.999. */
  target: z.number(),
  uptime: z.number(),
  checks: z.number(),
  failed: z.number(),
  inMaintenance: z.number(),
  errorBudget: ErrorBudget,
  ...Measured,
  monitors: z.array(MonitorSla),
  maintenance: z.array(z.object({ id: z.number(), title: z.string(), startsAt: z.number(), endsAt: z.number() })),
  incidents: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(["monitor", "status_report"]),
      title: z.string(),
      startedAt: z.number(),
      resolvedAt: z.number().nullable(),
    }),
  ),
});
export type SlaReport = z.infer<typeof SlaReport>;

/** One bucket (hour or day) of what was measured: core's slot verdicts, the same figures as the SLA report. */
export const MeasuredBucket = z.object({
  start: z.number(),
  /** Share of counted time not down; null when nothing was counted ("no data"). */
  uptime: z.number().nullable(),
  ...Measured,
});
export type MeasuredBucket = z.infer<typeof MeasuredBucket>;

/**
 * The monitor's measured uptime over a summary's range (GET /v1/monitors/:id/summary's `measured`): the monitor's
 * verdict per slot, whatever `locationId` filters the latency series by.
 */
export const MeasuredUptime = z.object({
  firstCheckAt: z.number().nullable(),
  uptime: z.number().nullable(),
  ...Measured,
  buckets: z.array(MeasuredBucket),
});
export type MeasuredUptime = z.infer<typeof MeasuredUptime>;

/**
 * A measured time as a report states it, every unit down to the second ("30 d 20 h", "2 h 5 min 3 s"); under a
 * second, to the millisecond ("0.6 s": 10 measured minutes at 99.9 % allow that). Negative times keep their sign.
 */
export function spanText(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${Number((abs / 1000).toFixed(3))} s`;
  let s = Math.round(abs / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["min", 60],
  ] as const) {
    if (s >= size) parts.push(`${Math.floor(s / size)} ${unit}`);
    s %= size;
  }
  if (s > 0 || parts.length === 0) parts.push(`${s} s`);
  return sign + parts.join(" ");
}
