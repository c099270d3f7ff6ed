import { ackToken, deliveryContext, recordDelivery } from "@vigil/core";
import { retryThroughOutage } from "@vigil/db-schema";
import { notify } from "@vigil/notifier";
import { NotifyJob } from "@vigil/queue";
import { type Job, UnrecoverableError } from "bullmq";
import type { WorkflowContext } from "../context";

/** The idempotency key of one event's delivery to one channel: the same on every attempt, across restarts. */
export const deliveryKey = (eventId: number, channelId: number, round = 0) => `vigil-${eventId}-${channelId}${round ? `-t${round}` : ""}`;

/** When BullMQ runs the job again after `attempt` failed, by the formula it uses (we set no jitter). */
function nextRetry(job: Job, attempt: number): number | undefined {
  const b = job.opts.backoff;
  const delay =
    b === undefined
      ? 0
      : typeof b === "number"
        ? b
        : b.type === "fixed"
          ? (b.delay ?? 0)
          : b.type === "exponential"
            ? 2 ** (attempt - 1) * (b.delay ?? 0)
            : undefined;
  return delay === undefined ? undefined : Date.now() + Math.round(delay);
}

/**
 * An alert's signed acknowledge link (the dashboard's confirm page), and for a reminder or escalation
 * ("round" > 0) how long the monitor has been down.
 */
function withAck<E extends { type: string; cronTimestamp: number }>(
  event: E,
  eventId: number,
  channelId: number,
  round: number,
  dashboardUrl: string,
) {
  if (event.type === "recovered") return event;
  const token = ackToken(eventId, channelId);
  return {
    ...event,
    ...(token ? { ackUrl: `${dashboardUrl}/ack/${token}` } : {}),
    ...(round > 0 ? { downForMs: Math.max(0, Date.now() - event.cronTimestamp) } : {}),
  };
}

/**
 * Sends one event to one channel. Every attempt lands in the delivery log; retryable failures
 * throw so BullMQ retries with backoff; permanent ones stop at once. `signal` aborts at shutdown.
 */
export function notifyProcessor(ctx: WorkflowContext) {
  return async (job: Job, _token?: string, signal?: AbortSignal) => {
    const { eventId, channelId, round = 0 } = NotifyJob.parse(job.data);
    const log = { eventId, channelId, round, jobId: job.id };
    const { delivered, info, channel } = await deliveryContext(ctx.db, eventId, channelId, round);
    if (delivered) return "already delivered";
    if (!info || !channel) return "gone";
    if (!channel.enabled) return "channel disabled";
    const attempt = job.attemptsMade + 1;
    const res = await notify(channel, withAck(info.event, eventId, channelId, round, ctx.notifierEnv.DASHBOARD_URL), ctx.notifierEnv, {
      deliveryId: deliveryKey(eventId, channelId, round),
      egress: ctx.egress,
    });
    if (res.ok) {
      ctx.metrics.deliveries.inc({ outcome: "sent" });
      const sent = { ...log, monitorId: info.event.monitor.id, status: info.event.type, attempt };
      try {
        // The job keeps its lock while this waits (the worker renews it through Redis): no other worker sends it again.
        await retryThroughOutage(
          () => recordDelivery(ctx.db, { eventId, channelId, round, attempt, outcome: "sent", responseCode: res.status }),
          {
            signal,
          },
        );
      } catch (err) {
        // Throwing would send the alert again; the log missing one "sent" row is the lesser harm.
        ctx.logger.error({ ...sent, err }, "alert delivered but not recorded in the delivery log");
        return "sent, not recorded";
      }
      ctx.logger.info(sent, "alert delivered");
      return "sent";
    }
    const last = !res.retryable || attempt >= (job.opts.attempts ?? 1);
    await recordDelivery(ctx.db, {
      eventId,
      channelId,
      round,
      attempt,
      outcome: last ? "failed" : "retrying",
      responseCode: res.status,
      error: res.error,
      nextRetryAt: last ? undefined : nextRetry(job, attempt),
    });
    ctx.metrics.deliveries.inc({ outcome: last ? "failed" : "retrying" });
    ctx.logger.warn(
      { ...log, attempt, retryable: res.retryable, error: res.error },
      last ? "alert failed" : "alert delivery will be retried",
    );
    if (!res.retryable) throw new UnrecoverableError(res.error);
    throw new Error(res.error);
  };
}
