"use client";
import { CheckCheck } from "lucide-react";
import { useActionState } from "react";
import type { ActionState } from "../../lib/action-state";
import { buttonClass } from "../../ui/ui";
import { acknowledgeAction } from "./actions";

// Its own classes, not buttonClass plus overrides: two heights in one class list leave the winner to the stylesheet's order.
const COMPACT =
  "inline-flex h-7 items-center gap-1.5 whitespace-nowrap rounded-md border border-zinc-300 bg-white px-2 text-xs font-medium text-zinc-900 transition-colors hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-400";

/**
 * Acknowledges the monitor's open alert: reminders and escalation stop. `compact`: the small form a list row
 * holds, named after its monitor (`monitorName`) so that each row's button says which alert it stops.
 */
export function AckButton({
  workspaceId,
  monitorId,
  monitorName,
  compact = false,
}: {
  workspaceId: number;
  monitorId: number;
  monitorName?: string;
  compact?: boolean;
}) {
  const [state, ack, pending] = useActionState(acknowledgeAction, {} as ActionState);
  return (
    <form action={ack} className={compact ? "mt-1.5 grid justify-items-start gap-1" : "grid justify-items-end gap-1"}>
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="monitorId" value={monitorId} />
      <button
        type="submit"
        className={compact ? COMPACT : buttonClass("primary")}
        disabled={pending}
        aria-label={monitorName ? `Acknowledge ${monitorName}` : undefined}
      >
        <CheckCheck className={compact ? "size-3.5" : "size-4"} aria-hidden />
        {pending ? "Acknowledging…" : "Acknowledge"}
      </button>
      {state.error ? (
        <p role="alert" className={compact ? "max-w-48 text-xs text-red-600" : "text-sm text-red-600"}>
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
