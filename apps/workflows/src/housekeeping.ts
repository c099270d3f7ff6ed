import type { Analytics } from "@vigil/analytics";
import {
  applyRetention,
  claimLocationNotices,
  countSilentSlots,
  markSilentLocations,
  noticeChannels,
  pendingEvaluations,
  purgeExpired,
  undispatchedEvents,
} from "@vigil/core";
import { locationNotice, notify } from "@vigil/notifier";
import type { EvaluateItem } from "@vigil/queue";
import type { Job } from "bullmq";
import type { WorkflowContext } from "./context";
import { dispatch } from "./evaluate/processor";
import { runSubscriberMail } from "./subscriber-mail";

/** Results and events older than this without progress are taken to be stranded. */
const STRANDED_MS = 10_000;

export function housekeepingProcessor(
  ctx: WorkflowContext,
  analytics: Analytics,
  enqueueEvaluate: (items: EvaluateItem[], jobIdSuffix?: string) => Promise<void>,
  statusPageUrl: string,
) {
  return async (job: Job, _token?: string, signal?: AbortSignal) => {
    switch (job.name) {
      case "sweep": {
        // Results stored while Redis was away, and events whose notify jobs a crash may have lost.
        const pending = await pendingEvaluations(ctx.db, STRANDED_MS);
        // A fresh job id: a job for the same work may have failed for good while the database was down.
        await enqueueEvaluate(pending, `sweep-${job.id}`);
        const events = await undispatchedEvents(ctx.db, STRANDED_MS);
        await dispatch(ctx, events);
        if (pending.length + events.length > 0)
          ctx.logger.info({ pendingMonitors: pending.length, undispatchedEvents: events.length }, "swept stranded work");
        return { pending: pending.length, events: events.length };
      }
      case "probe-health": {
        const offline = await markSilentLocations(ctx.db);
        for (const id of offline) ctx.logger.warn({ locationId: id }, "private location went silent; marked offline");
        const missedSlots = await countSilentSlots(ctx.db);
        const notices = await sendLocationNotices(ctx);
        return { offline, missedSlots, notices };
      }
      case "retention": {
        const deleted = await applyRetention(ctx.db, analytics.deleteBefore);
        // Expired sign-in links and sessions, and subscribers who never confirmed, on the same hourly beat.
        const purged = await purgeExpired(ctx.db);
        ctx.logger.info({ deleted, purged }, "retention applied");
        return { deleted, purged };
      }
      case "subscriber-mail":
        // New reports, report updates and maintenance to confirmed subscribers; each mail once.
        return runSubscriberMail(ctx, statusPageUrl, signal);
      default:
        return "unknown";
    }
  };
}

/** Tries per channel for a location notice; retryable failures wait 1 s, then 2 s. */
const NOTICE_TRIES = 3;

/**
 * Tells each workspace whose private location went silent (or came back) on its channels, as text: once per
 * silence and once per return, claimed in the database before sending so a restart never repeats one.
 * Webhook channels are left out: their body is monitor status changes only, and they have no opt-in yet.
 */
export async function sendLocationNotices(
  ctx: Pick<WorkflowContext, "db" | "logger" | "notifierEnv" | "egress" | "sending">,
  nowMs = Date.now(),
): Promise<number> {
  let sent = 0;
  for (const claimed of await claimLocationNotices(ctx.db, nowMs)) {
    const event = locationNotice(claimed, ctx.notifierEnv.DASHBOARD_URL, nowMs);
    const channels = await noticeChannels(ctx.db, claimed.location.workspaceId);
    await Promise.all(
      channels.map(async (channel) => {
        const log = { locationId: claimed.location.id, notice: event.notice!.kind, channelId: channel.id };
        for (let attempt = 1; ; attempt++) {
          const res = await ctx.sending(() =>
            notify(channel, event, ctx.notifierEnv, { egress: ctx.egress, timeoutMs: channel.timeoutMs }),
          );
          if (res.ok) {
            sent++;
            ctx.logger.info({ ...log, attempt }, "location notice delivered");
            return;
          }
          if (!res.retryable || attempt === NOTICE_TRIES) {
            ctx.logger.warn({ ...log, attempt, error: res.error }, "location notice failed");
            return;
          }
          await new Promise((r) => setTimeout(r, 1000 * attempt));
        }
      }),
    );
  }
  return sent;
}
