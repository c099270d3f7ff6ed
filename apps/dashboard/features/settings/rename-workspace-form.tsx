"use client";
import { useActionState } from "react";
import { FormError } from "../../ui/form-state";
import { Button, Field, Input } from "../../ui/ui";
import { renameWorkspaceAction } from "./actions";

export function RenameWorkspaceForm({ workspaceId, name, disabled }: { workspaceId: number; name: string; disabled?: boolean }) {
  const [state, action, pending] = useActionState(renameWorkspaceAction, {});
  return (
    <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <div className="flex-1">
        <Field label="Name" name="name" error={state.fields?.name}>
          <Input id="name" name="name" defaultValue={name} maxLength={120} disabled={disabled} invalid={!!state.fields?.name} />
        </Field>
      </div>
      <Button variant="secondary" disabled={pending || disabled} className="sm:mt-6.5">
        {pending ? "Saving…" : "Save"}
      </Button>
      <div className="sm:hidden">
        <FormError state={state} />
      </div>
      {state.ok ? <span className="text-sm text-emerald-700 sm:mt-8">Saved</span> : null}
    </form>
  );
}
