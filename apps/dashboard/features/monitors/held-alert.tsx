import { heldAlert } from "@vigil/core";
import { PauseCircle, Send } from "lucide-react";
import { getDb } from "../../lib/db";
import { cx } from "../../ui/ui";

/** Why this monitor's current alert waits for a parent, or why it went out after all; nothing when it has no hold. */
export async function HeldAlert({ workspaceId, monitorId }: { workspaceId: number; monitorId: number }) {
  const hold = await heldAlert(getDb(), workspaceId, monitorId);
  if (!hold || (!hold.held && hold.reason === "released")) return null;
  const Icon = hold.held ? PauseCircle : Send;
  return (
    <p
      data-testid="held-alert"
      className={cx(
        "mt-1 inline-flex items-center gap-1 rounded px-1.5 py-px text-xs font-medium",
        hold.held ? "bg-zinc-100 text-zinc-700" : "bg-amber-50 text-amber-800",
      )}
      title={hold.held ? "This monitor's alert is not sent while its parent is down or being checked" : "This monitor's alert was sent"}
    >
      <Icon className="size-3" aria-hidden />
      Alert {hold.reason}
    </p>
  );
}
