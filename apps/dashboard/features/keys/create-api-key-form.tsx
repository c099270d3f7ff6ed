"use client";
import { KeyRound } from "lucide-react";
import { useActionState } from "react";
import { CopyButton, Snippet } from "../../ui/copy-button";
import { Modal } from "../../ui/dialog";
import { FormError, useShown } from "../../ui/form-state";
import { Field, Input, PendingSubmit } from "../../ui/ui";
import { createApiKeyAction } from "./actions";

const SCOPES = [
  { id: "read", hint: "list and read monitors, channels, status pages, results and the audit log" },
  { id: "write", hint: "create, change, delete, test and trigger" },
  { id: "probe-admin", hint: "create and delete private locations (their probe keys)" },
] as const;

export function CreateApiKeyForm({ workspaceId }: { workspaceId: number }) {
  const [state, action, pending] = useActionState(createApiKeyAction, {});
  const [open, setOpen] = useShown(state);
  return (
    <>
      <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <div className="flex-1">
          <Field label="Name" name="name" error={state.fields?.name} hint="What uses it, e.g. “CI deploy” or “Ana’s laptop”.">
            <Input id="name" name="name" placeholder="CI deploy" invalid={!!state.fields?.name} />
          </Field>
          <fieldset className="mt-3" aria-describedby="scopes-hint">
            <legend className="text-sm font-medium text-zinc-800">Scopes</legend>
            <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
              {SCOPES.map((s) => (
                <label key={s.id} className="flex items-center gap-2 text-sm" title={s.hint}>
                  <input type="checkbox" name="scopes" value={s.id} defaultChecked={s.id !== "probe-admin"} className="size-4" />
                  {s.id}
                </label>
              ))}
            </div>
            <p id="scopes-hint" className="mt-1 text-xs text-zinc-500">
              read: list and read everything; write: create, change, test and trigger; probe-admin: create and delete private locations.
            </p>
            {state.fields?.scopes ? (
              <p className="mt-1 text-sm text-red-600" role="alert">
                Scopes {state.fields.scopes}
              </p>
            ) : null}
          </fieldset>
        </div>
        <PendingSubmit pending={pending} icon={KeyRound} busy="Creating…" className="sm:mt-6.5">
          Create key
        </PendingSubmit>
      </form>
      <FormError state={state} />
      <Modal
        wide
        open={open}
        onOpenChange={setOpen}
        title={`API key “${state.info?.name ?? ""}” created`}
        description={`Copy it now: it is shown only once. We keep only its hash. Scopes: ${state.info?.scopes ?? ""}.`}
      >
        <div className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-2">
          <code data-testid="secret" data-copy={state.secret?.slice(0, 40)} className="flex-1 overflow-x-auto font-mono text-sm break-all">
            {state.secret}
          </code>
          <CopyButton value={state.secret ?? ""} />
        </div>
        <p className="mt-4 text-sm text-zinc-600">Use it with the CLI:</p>
        <div className="mt-2">
          <Snippet title="Shell" value={`export VIGIL_API_TOKEN=${state.secret ?? ""}\npnpm exec vigil whoami`} />
        </div>
      </Modal>
    </>
  );
}
