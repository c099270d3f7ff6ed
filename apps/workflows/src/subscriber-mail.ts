import { type SubscriberSendSummary, sendSubscriberMails } from "@vigil/core";
import type { WorkflowContext } from "./context";

/**
 * Mails status-page subscribers about new report updates and maintenance windows. Safe to run often
 * and from several workers: each (subscriber, update) is claimed once and never mailed twice.
 * `publicUrl` is the status site's base URL (links and unsubscribe links in the mail); `signal` aborts at shutdown.
 */
export async function runSubscriberMail(ctx: WorkflowContext, publicUrl: string, signal?: AbortSignal): Promise<SubscriberSendSummary> {
  const summary = await sendSubscriberMails(ctx.db, ctx.notifierEnv, { publicUrl, signal, egress: ctx.egress });
  if (summary.sent + summary.failed > 0) ctx.logger.info(summary, "subscriber mail");
  if (summary.failed > 0) ctx.logger.warn({ failed: summary.failed }, "subscriber mail failed; retried on the next run");
  return summary;
}
