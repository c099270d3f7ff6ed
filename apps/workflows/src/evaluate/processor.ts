import { dispatchEvents, type EvaluatedEvent, evaluateMonitors, undispatchedEvents } from "@vigil/core";
import type { Db } from "@vigil/db-schema";
import { EvaluateJob } from "@vigil/queue";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";

/**
 * Routes, queues and marks these events' alerts (all of them in a few round trips), counting the suppressed
 * ones and logging each new status; a queueing repeated by a retry or the sweep is harmless (the job ids
 * repeat). `logged`: the events announced in the log (the others are left over from an earlier try).
 */
export async function dispatch(
  ctx: WorkflowContext,
  events: readonly { id: number; monitorId: number }[],
  log?: { logged: readonly EvaluatedEvent[]; jobId?: string; message: string },
): Promise<void> {
  const out = await dispatchEvents(ctx.db, events, (sends) => ctx.notifyQueue(sends));
  for (const d of out) if (d.suppressed) ctx.metrics.deliveries.inc({ outcome: "suppressed" }, d.channels);
  const channels = new Map(out.map((d) => [d.eventId, d.channels]));
  if (!log) return;
  for (const e of log.logged)
    ctx.logger.info(
      {
        monitorId: e.monitorId,
        eventId: e.id,
        status: e.status,
        cronTimestamp: e.cronTimestamp,
        channels: channels.get(e.id) ?? 0,
        suppressed: e.suppressed,
        jobId: log.jobId,
      },
      log.message,
    );
}

export function evaluateProcessor(ctx: WorkflowContext) {
  return async (job: Job) => {
    const { items } = EvaluateJob.parse(job.data);
    // The whole job in one read round trip and one write batch; only status changes write more.
    const evaluations = await evaluateMonitors(ctx.db as Db, [...new Set(items.map((i) => i.monitorId))]);
    const now = Date.now();
    const slots = new Map(items.map((i) => [i.monitorId, i.cronTimestamp]));
    for (const out of evaluations)
      if (out.cronTimestamp !== null) ctx.metrics.evaluationLag.observe(Math.max(0, now - slots.get(out.monitorId)!) / 1000);
    const changed = evaluations.flatMap((out) => (out.event ? [out.event] : []));
    // A retry finds its moves already made (no new event): it dispatches what the failed try left undispatched.
    const left = job.attemptsMade > 0 ? await undispatchedEvents(ctx.db, 0, Date.now(), 1000, [...slots.keys()]) : [];
    await dispatch(ctx, [...changed, ...left], { logged: changed, jobId: job.id, message: "status changed" });
    return { evaluated: items.length, events: changed.length };
  };
}
