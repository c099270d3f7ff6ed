// An SLA report as GET /v1/sla/… answers it in JSON; core builds it, the CLI prints it.
import { z } from "zod";

/** How many failed checks the target allows over the counted ones, and what share of that is left (may go below 0). */
const ErrorBudget = z.object({ allowedFailures: z.number(), remaining: z.number() });

export const MonitorSla = z.object({
  monitorId: z.number(),
  monitorName: z.string(),
  /** Checks counted (outside maintenance windows). */
  checks: z.number(),
  failed: z.number(),
  /** Checks left out because a maintenance window covered their slot. */
  inMaintenance: z.number(),
  /** Share of counted checks that did not end in error (1 when there are none). */
  uptime: z.number(),
  errorBudget: ErrorBudget,
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
