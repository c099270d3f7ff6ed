import type { Db } from "@vigil/db-schema";
import { type NotifierEnv, type NotifyOptions, notify, type SendResult } from "@vigil/notifier";
import { getChannelForSending } from "./channels";

/**
 * Sends a test message through the channel's stored config, on the same path alerts take (`egress`
 * included: a channel aimed at the instance's own endpoints is refused), and returns the provider's
 * answer. Another workspace's channel is not found.
 */
export async function sendTestNotification(
  db: Db,
  workspaceId: number,
  id: number,
  env: NotifierEnv,
  egress: NotifyOptions["egress"],
): Promise<SendResult> {
  const row = await getChannelForSending(db, workspaceId, id);
  // A test never speaks of a real monitor: a receiver that deduplicates or opens incidents by
  // monitor id must not mistake it for one (it also carries `x-vigil-event: test`).
  const monitor = { id: 0, name: `Vigil test notification for "${row.name}"`, url: env.DASHBOARD_URL };
  return notify(row, { type: "test", monitor, cronTimestamp: Date.now() }, env, { egress });
}
