import { channelsForEvent, evaluateMonitors, markDispatched, recordSuppressed, routeAlert } from "@vigil/core";
import type { Db } from "@vigil/db-schema";
import { EvaluateJob, type NotifyJob } from "@vigil/queue";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";

/**
 * Queues one notify job per enabled channel, then marks the event dispatched (queuing it again is
 * harmless: the job ids repeat); or logs the suppression and the mark at once.
 */
export async function dispatch(ctx: WorkflowContext, event: { id: number; suppressed: boolean; monitorId: number }): Promise<number> {
  const channelIds = await channelsForEvent(ctx.db, event.id);
  if (event.suppressed) {
    await recordSuppressed(ctx.db, event.id, channelIds);
    ctx.metrics.deliveries.inc({ outcome: "suppressed" }, channelIds.length);
  } else {
    // Reminders, escalation and dependencies decide the recipients (a child's alert may wait for its parent).
    const route = await routeAlert(ctx.db, event.id);
    if ("suppressed" in route) {
      await recordSuppressed(ctx.db, event.id, channelIds, Date.now(), route.suppressed);
      ctx.metrics.deliveries.inc({ outcome: "suppressed" }, channelIds.length);
      return channelIds.length;
    }
    const to = "send" in route ? route.send : [];
    await ctx.notifyQueue(to.map((channelId): NotifyJob => ({ eventId: event.id, channelId })));
    await markDispatched(ctx.db, [event.id]);
    return to.length;
  }
  return channelIds.length;
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
    const changed = evaluations.filter((out) => out.event !== null);
    await Promise.all(
      changed.map(async (out) => {
        const event = out.event!;
        const n = await dispatch(ctx, event);
        ctx.logger.info(
          {
            monitorId: out.monitorId,
            eventId: event.id,
            status: event.status,
            cronTimestamp: event.cronTimestamp,
            channels: n,
            suppressed: event.suppressed,
            jobId: job.id,
          },
          "status changed",
        );
      }),
    );
    return { evaluated: items.length, events: changed.length };
  };
}
