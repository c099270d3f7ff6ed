"use client";
// The form frame of the status-page editor. Field errors come from the shared zod schemas through core.
import { type FormEvent, type ReactNode, startTransition, useActionState, useEffect, useState } from "react";
import type { ActionState } from "../lib/action-state";
import { LiftHint } from "./lift-hint";
import { Notice } from "./ui";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/** A form-wide message when no field carries it (a limit names its key). */
function FormNotice({ state, saved }: { state: ActionState; saved?: string }) {
  if (state.error && !(state.fields && Object.keys(state.fields).length > 0))
    return (
      <div role="alert" data-testid="form-error">
        <Notice tone="red">
          {state.error}
          <LiftHint info={state.info} />
        </Notice>
      </div>
    );
  if (state.ok && saved)
    return (
      <p className="text-sm text-emerald-700" role="status">
        {saved}
      </p>
    );
  return null;
}

/** A form bound to a server action, with the workspace (and extra ids) as hidden fields. */
export function ActionForm({
  action,
  hidden,
  children,
  className,
  saved,
  resetOnOk,
}: {
  action: Action;
  hidden: Record<string, string | number>;
  children: (state: ActionState, pending: boolean) => ReactNode;
  className?: string;
  saved?: string;
  resetOnOk?: boolean;
}) {
  const [state, run, pending] = useActionState(action, {});
  const [key, setKey] = useState(0);
  useEffect(() => {
    if (resetOnOk && state.ok && state.at) setKey((k) => k + 1);
  }, [resetOnOk, state.ok, state.at]);
  // Submitted by hand: a form action would reset every field, losing what was typed when it is refused.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => run(data));
  };
  return (
    <form key={key} onSubmit={submit} className={className ?? "grid gap-4"} noValidate>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={String(v)} />
      ))}
      {children(state, pending)}
      <FormNotice state={state} saved={saved} />
    </form>
  );
}

export const err = (state: ActionState, name: string) => state.fields?.[name];
