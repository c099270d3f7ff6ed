import type { SubscriberView } from "@vigil/core";
import { Badge } from "../../ui/ui";

/**
 * A subscriber's state as admins need it: a webhook or Slack subscriber waits for workflows to verify it
 * ("pending verification"), and one that failed shows the real reason, which its visitor was never told.
 */
export function SubscriberState({ subscriber: s }: { subscriber: SubscriberView }) {
  if (s.state === "confirmed") return <Badge tone="green">confirmed</Badge>;
  if (s.state === "unsubscribed") return <Badge tone="zinc">unsubscribed</Badge>;
  if (s.channel === "email") return <Badge tone="amber">pending</Badge>;
  if (s.verificationError)
    return (
      <span className="flex flex-col gap-1" data-testid="verification-failed">
        <Badge tone="red">verification failed</Badge>
        <span className="text-xs text-zinc-600">{s.verificationError}</span>
      </span>
    );
  return <Badge tone="amber">pending verification</Badge>;
}
