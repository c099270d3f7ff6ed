import { ackToken, deliveryContext, dropStaleFollowUp, finishAttempt, noteSlowAttempt, openDelivery, startAttempt } from "@vigil/core";
import { retryThroughOutage } from "@vigil/db-schema";
import { notify } from "@vigil/notifier";
import { NotifyJob } from "@vigil/queue";
import { type Job, UnrecoverableError } from "bullmq";
import type { WorkflowContext } from "../context";
import { lateAnswerMs } from "./backoff";

/** The idempotency key of one event's delivery to one channel: the same on every attempt, across restarts. */
export const deliveryKey = (eventId: number, channelId: number, round = 0) => `vigil-${eventId}-${channelId}${round ? `-t${round}` : ""}`;

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
 * Sends one event to one channel. Every attempt is one row in the delivery log, opened as `sending` and
 * settled with its outcome; an answer after the channel's timeout still counts (the attempt waits for it
 * rather than sending again). Retryable failures throw so BullMQ retries with backoff; permanent ones stop
 * at once. `signal` aborts at shutdown.
 */
export function notifyProcessor(ctx: WorkflowContext) {
  return async (job: Job, _token?: string, signal?: AbortSignal) => {
    const { eventId, channelId, round = 0 } = NotifyJob.parse(job.data);
    const log = { eventId, channelId, round, jobId: job.id };
    // The event itself: its checks and its attempt in one round trip. A follow-up checks, then asks whether it is still due.
    const {
      delivered,
      info,
      channel,
      attempt: opened,
    } = round === 0
      ? await openDelivery(ctx.db, eventId, channelId)
      : { ...(await deliveryContext(ctx.db, eventId, channelId, round)), attempt: undefined };
    if (delivered) return "already delivered";
    if (!info || !channel) return "gone";
    if (!channel.enabled) return "channel disabled";
    if (round > 0) {
      // A reminder or step that waited (queued, or between retries) past an acknowledgement is not sent.
      const dropped = await dropStaleFollowUp(ctx.db, eventId, channelId, round);
      if (dropped) {
        ctx.logger.info({ ...log, reason: dropped }, "follow-up not sent");
        return dropped;
      }
    }
    const { id, attempt } = opened ?? (await startAttempt(ctx.db, eventId, channelId, round));
    const timeoutMs = channel.timeoutMs;
    const res = await ctx.sending(() =>
      notify(channel, withAck(info.event, eventId, channelId, round, ctx.notifierEnv.DASHBOARD_URL), ctx.notifierEnv, {
        deliveryId: deliveryKey(eventId, channelId, round),
        egress: ctx.egress,
        timeoutMs,
        lateMs: lateAnswerMs(timeoutMs),
        onSlow: () => {
          ctx.metrics.deliveries.inc({ outcome: "slow" });
          ctx.logger.warn({ ...log, attempt, timeoutMs }, "receiver slow to answer; waiting for it before any retry");
          noteSlowAttempt(ctx.db, id, `no answer within ${timeoutMs / 1000} s; still waiting for it`).catch(() => {});
        },
      }),
    );
    if (res.ok) {
      ctx.metrics.deliveries.inc({ outcome: "sent" });
      const sent = { ...log, monitorId: info.event.monitor.id, status: info.event.type, attempt };
      try {
        // The job keeps its lock while this waits (the worker renews it through Redis): no other worker sends it again.
        await retryThroughOutage(() => finishAttempt(ctx.db, id, { channelId, outcome: "sent", responseCode: res.status }), { signal });
      } catch (err) {
        // Throwing would send the alert again; the log missing one "sent" row is the lesser harm.
        ctx.logger.error({ ...sent, err }, "alert delivered but not recorded in the delivery log");
        return "sent, not recorded";
      }
      ctx.logger.info(sent, "alert delivered");
      return "sent";
    }
    const tries = job.attemptsMade + 1;
    const last = !res.retryable || tries >= (job.opts.attempts ?? 1);
    const delay = last ? undefined : ctx.retryDelay(job.id!, tries);
    await finishAttempt(ctx.db, id, {
      channelId,
      outcome: last ? "failed" : "retrying",
      responseCode: res.status,
      error: res.error,
      nextRetryAt: delay === undefined ? undefined : Date.now() + delay,
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
