import type { Analytics } from "@vigil/analytics";
import { applyRetention, markSilentLocations, pendingEvaluations, purgeExpired, undispatchedEvents } from "@vigil/core";
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
        return { offline };
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
