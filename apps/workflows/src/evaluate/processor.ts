import { channelsForEvent, evaluateMonitor, markDispatched, recordDelivery } from "@vigil/core";
import type { Db } from "@vigil/db-schema";
import { EvaluateJob, type NotifyJob } from "@vigil/queue";
import type { Job } from "bullmq";
import type { WorkflowContext } from "../context";

/** Queues one notify job per enabled channel, or logs the suppression; then marks the event dispatched. */
export async function dispatch(ctx: WorkflowContext, event: { id: number; suppressed: boolean; monitorId: number }): Promise<number> {
  const channelIds = await channelsForEvent(ctx.db, event.id);
  if (event.suppressed) {
    for (const channelId of channelIds)
      await recordDelivery(ctx.db, { eventId: event.id, channelId, attempt: 0, outcome: "suppressed", error: "maintenance window" });
    ctx.metrics.deliveries.inc({ outcome: "suppressed" }, channelIds.length);
  } else {
    await ctx.notifyQueue(channelIds.map((channelId): NotifyJob => ({ eventId: event.id, channelId })));
  }
  await markDispatched(ctx.db, [event.id]);
  return channelIds.length;
}

const ITEM_CONCURRENCY = 8;

export function evaluateProcessor(ctx: WorkflowContext) {
  return async (job: Job) => {
    const { items } = EvaluateJob.parse(job.data);
    let events = 0;
    // Several monitors at once: their reads overlap while the database serializes the short writes.
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const out = await evaluateMonitor(ctx.db as Db, item.monitorId);
        if (out.cronTimestamp !== null) ctx.metrics.evaluationLag.observe(Math.max(0, Date.now() - item.cronTimestamp) / 1000);
        if (!out.event) continue;
        events++;
        const n = await dispatch(ctx, out.event);
        ctx.logger.info(
          {
            monitorId: item.monitorId,
            eventId: out.event.id,
            status: out.event.status,
            cronTimestamp: out.event.cronTimestamp,
            channels: n,
            suppressed: out.event.suppressed,
            jobId: job.id,
          },
          "status changed",
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(ITEM_CONCURRENCY, items.length) }, worker));
    return { evaluated: items.length, events };
  };
}
