import type { Db } from "@vigil/db-schema";
import { type NotifierEnv, type NotifyOptions, notify, type SendResult } from "@vigil/notifier";
import type { RateLimiter } from "@vigil/rate-limit";
import { type Actor, auditInsert } from "../audit";
import { RATE_LIMITS } from "../rate-limits";
import { channelDestination, getChannelForSending } from "./channels";

/** What a channel test sends with: the notifier's settings, where it may not connect, and the workspace's budget. */
export interface TestSending {
  env: NotifierEnv;
  egress: NotifyOptions["egress"];
  limiter: RateLimiter;
}

/**
 * Sends a test message through the channel's stored config, on the same path alerts take (`egress`
 * included: a channel aimed at the instance's own endpoints is refused), and returns the provider's
 * answer; the audit log records who tested it, where it went and what came back. Another workspace's
 * channel is not found. Only stored channels are tested: no draft meets a stored secret here.
 * A workspace's tests are rate limited (RATE_LIMITS.channelTest): the operator's own mail sender, SMS
 * account and bots must not become a spam cannon; beyond it a RateLimitedError, and nothing is sent.
 */
export async function sendTestNotification(
  db: Db,
  workspaceId: number,
  id: number,
  actor: Actor,
  { env, egress, limiter }: TestSending,
): Promise<SendResult> {
  const row = await getChannelForSending(db, workspaceId, id);
  await limiter.take(RATE_LIMITS.channelTest, String(workspaceId));
  // A test never speaks of a real monitor: a receiver that deduplicates or opens incidents by
  // monitor id must not mistake it for one (it also carries `x-vigil-event: test`).
  const monitor = { id: 0, name: `Vigil test notification for "${row.name}"`, url: env.DASHBOARD_URL };
  const target = channelDestination(row.kind, row.config);
  const record = (outcome: string, statusCode?: number) =>
    auditInsert(db, {
      workspaceId,
      actor,
      action: "channel.test",
      targetType: "channel",
      targetId: id,
      metadata: { kind: row.kind, ...(target && { target }), outcome, ...(statusCode !== undefined && { statusCode }) },
    });
  let res: SendResult;
  try {
    res = await notify(row, { type: "test", monitor, cronTimestamp: Date.now() }, env, { egress });
  } catch (err) {
    await record("not sent");
    throw err;
  }
  await record(res.ok ? "delivered" : "failed", res.status);
  return res;
}
