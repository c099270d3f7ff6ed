"use client";
import { useEffect, useState } from "react";
import type { ActionState } from "../lib/action-state";
import { LiftHint } from "./lift-hint";

/** The action's refusal when no field names it. */
export function FormError({ state }: { state: ActionState }) {
  if (!state.error || (state.fields && Object.keys(state.fields).length > 0)) return null;
  return (
    <p className="text-sm text-red-600" role="alert">
      {state.error}
      <LiftHint info={state.info} />
    </p>
  );
}

/** Opens the success dialog once per successful submission. */
export function useShown(state: ActionState) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (state.ok && state.at) setOpen(true);
  }, [state.ok, state.at]);
  return [open, setOpen] as const;
}
