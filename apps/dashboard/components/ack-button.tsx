"use client";
import { CheckCheck } from "lucide-react";
import { useActionState } from "react";
import type { ActionState } from "../lib/action-state";
import { acknowledgeAction } from "../lib/alert-actions";
import { buttonClass } from "./ui";

/** Acknowledges the monitor's open alert: reminders and escalation stop. */
export function AckButton({ workspaceId, monitorId }: { workspaceId: number; monitorId: number }) {
  const [state, ack, pending] = useActionState(acknowledgeAction, {} as ActionState);
  return (
    <form action={ack} className="grid justify-items-end gap-1">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="monitorId" value={monitorId} />
      <button type="submit" className={buttonClass("primary")} disabled={pending}>
        <CheckCheck className="size-4" aria-hidden />
        {pending ? "Acknowledging…" : "Acknowledge"}
      </button>
      {state.error ? (
        <p role="alert" className="text-sm text-red-600">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
