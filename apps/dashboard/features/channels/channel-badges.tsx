import type { DeliveryOutcome } from "@vigil/core";
import { Badge } from "../../ui/ui";

const OUTCOME = {
  sent: ["green", "sent"],
  sending: ["indigo", "sending"],
  retrying: ["amber", "retrying"],
  error: ["zinc", "failed, retried"],
  failed: ["red", "failed"],
  suppressed: ["zinc", "suppressed"],
} as const satisfies Record<DeliveryOutcome, readonly [string, string]>;

export function OutcomeBadge({ outcome }: { outcome: DeliveryOutcome }) {
  const [tone, label] = OUTCOME[outcome];
  return <Badge tone={tone}>{label}</Badge>;
}

/** Enabled / disabled, and failing when the last delivery gave up (or the channel is marked failing). */
export function ChannelState({
  enabled,
  failingSince,
  last,
}: {
  enabled: boolean;
  failingSince: number | null;
  last?: { outcome: DeliveryOutcome } | undefined;
}) {
  const failing = failingSince !== null || last?.outcome === "failed";
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      {enabled ? <Badge tone="green">enabled</Badge> : <Badge>disabled</Badge>}
      {failing ? (
        <span data-testid="failing">
          <Badge tone="red">failing</Badge>
        </span>
      ) : last?.outcome === "retrying" ? (
        <Badge tone="amber">retrying</Badge>
      ) : null}
    </span>
  );
}
