"use client";
import { AlertDialog } from "radix-ui";
import { type ReactNode, useActionState, useState } from "react";
import type { ActionState } from "../lib/action-state";
import { buttonClass } from "./ui";

/** A destructive button that asks first, then submits `fields` to `action`. */
export function ConfirmAction({
  action,
  fields,
  label,
  title,
  description,
  confirm,
  small = true,
  children,
}: {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  fields: Record<string, string>;
  label: string;
  title: string;
  description: string;
  confirm: string;
  small?: boolean;
  /** What else the action undoes, shown before it is confirmed. */
  children?: ReactNode;
}) {
  const [state, run, pending] = useActionState(action, {});
  const [open, setOpen] = useState(false);
  return (
    <>
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Trigger className={buttonClass("secondary", small ? "h-8 px-2.5 text-xs text-red-700" : "text-red-700")}>
          {label}
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/40" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-zinc-200 bg-white p-6 shadow-xl">
            <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-zinc-600">{description}</AlertDialog.Description>
            {children}
            <form
              action={(fd) => {
                setOpen(false);
                run(fd);
              }}
              className="mt-6 flex justify-end gap-2"
            >
              {Object.entries(fields).map(([k, v]) => (
                <input key={k} type="hidden" name={k} value={v} />
              ))}
              <AlertDialog.Cancel className={buttonClass("secondary")}>Cancel</AlertDialog.Cancel>
              <button type="submit" className={buttonClass("danger")}>
                {confirm}
              </button>
            </form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      {pending ? <span className="ml-2 text-xs text-zinc-500">Working…</span> : null}
      {state.error ? (
        <p className="mt-1 text-xs text-red-600" role="alert">
          {state.error}
        </p>
      ) : null}
    </>
  );
}
