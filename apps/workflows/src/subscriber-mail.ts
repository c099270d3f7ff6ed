import { type SubscriberSendSummary, sendSubscriberMails, verifyEndpointSubscribers } from "@vigil/core";
import { EgressPolicy, type InstanceUrls, instanceEndpoints } from "@vigil/egress";
import type { WorkflowContext } from "./context";

/**
 * Anonymous visitors choose subscriber URLs: they may reach public addresses only, plus the private ranges
 * the operator lists for internal status pages, never this instance's own services.
 */
export function subscriberEgress(env: InstanceUrls & { SUBSCRIBER_ALLOW_PRIVATE: readonly string[] }): Promise<EgressPolicy> {
  return EgressPolicy.create({
    instance: instanceEndpoints(env),
    publicOnly: { allow: env.SUBSCRIBER_ALLOW_PRIVATE, setting: "SUBSCRIBER_ALLOW_PRIVATE" },
  });
}

type Ctx = Pick<WorkflowContext, "db" | "logger" | "notifierEnv" | "subscriberEgress">;

/**
 * Verifies new webhook and Slack subscribers (the status page only stores them), then mails status-page
 * subscribers about new report updates and maintenance windows. Safe to run often and from several workers:
 * each verification and each (subscriber, update) is claimed once and never sent twice. Every request to a
 * subscriber's URL goes through the public-only policy. `publicUrl` is the status site's base URL (links and
 * unsubscribe links); `signal` aborts at shutdown.
 */
export async function runSubscriberMail(ctx: Ctx, publicUrl: string, signal?: AbortSignal): Promise<SubscriberSendSummary> {
  const verified = await verifyEndpointSubscribers(ctx.db, { publicUrl, egress: ctx.subscriberEgress });
  if (verified.verified + verified.linked + verified.failed > 0) ctx.logger.info(verified, "subscriber endpoints verified");
  const summary = await sendSubscriberMails(ctx.db, ctx.notifierEnv, { publicUrl, signal, egress: ctx.subscriberEgress });
  if (summary.sent + summary.failed > 0) ctx.logger.info(summary, "subscriber mail");
  if (summary.failed > 0) ctx.logger.warn({ failed: summary.failed }, "subscriber mail failed; retried on the next run");
  return summary;
}
