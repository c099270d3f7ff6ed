"use client";
// Forms of the status-page editor: component groups.
import { Plus } from "lucide-react";
import { ActionForm, err } from "../../ui/action-form";
import { Button, Field, Input } from "../../ui/ui";
import { createGroupAction, renameGroupAction } from "./actions";

export function CreateGroupForm({ workspaceId, pageId }: { workspaceId: number; pageId: number }) {
  return (
    <ActionForm
      action={createGroupAction}
      hidden={{ workspaceId, pageId }}
      resetOnOk
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
    >
      {(state, pending) => (
        <>
          <div className="flex-1">
            <Field label="Group name" name="group-name" error={err(state, "name")}>
              <Input id="group-name" name="name" placeholder="APIs" invalid={!!err(state, "name")} />
            </Field>
          </div>
          <Button variant="secondary" disabled={pending} className="sm:mt-6.5">
            <Plus className="size-4" aria-hidden />
            Add group
          </Button>
        </>
      )}
    </ActionForm>
  );
}

export function RenameGroupForm({ workspaceId, groupId, name }: { workspaceId: number; groupId: number; name: string }) {
  return (
    <ActionForm action={renameGroupAction} hidden={{ workspaceId, groupId }} className="flex items-center gap-2">
      {(state, pending) => (
        <>
          <Input
            name="name"
            defaultValue={name}
            aria-label={`Name of group ${name}`}
            invalid={!!err(state, "name")}
            className="h-8 max-w-60 font-semibold"
          />
          <Button variant="ghost" disabled={pending} className="h-8 px-2 text-xs">
            Rename
          </Button>
          {err(state, "name") ? <span className="text-xs text-red-600">Name {err(state, "name")}</span> : null}
        </>
      )}
    </ActionForm>
  );
}
