"use client";
import { Send } from "lucide-react";
import { useActionState } from "react";
import { CopyButton } from "../../ui/copy-button";
import { FormError } from "../../ui/form-state";
import { Button, Field, Input, Notice, PendingSubmit, Select } from "../../ui/ui";
import { acceptInviteAction, inviteAction } from "./actions";

export function InviteForm({ workspaceId }: { workspaceId: number }) {
  const [state, action, pending] = useActionState(inviteAction, {});
  return (
    <div className="grid gap-3">
      <form action={action} className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start" noValidate>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <Field label="Email" name="email" error={state.fields?.email}>
          <Input id="email" name="email" type="email" placeholder="teammate@example.com" invalid={!!state.fields?.email} />
        </Field>
        <Field label="Role" name="role" error={state.fields?.role}>
          <Select id="role" name="role" defaultValue="member">
            <option value="viewer">Viewer (read only)</option>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
        </Field>
        <PendingSubmit pending={pending} icon={Send} busy="Inviting…" className="sm:mt-6.5">
          Send invitation
        </PendingSubmit>
      </form>
      {state.error && !state.fields?.email && !state.fields?.role ? <Notice tone="red">{state.error}</Notice> : null}
      {state.ok && state.info ? (
        <Notice tone="indigo">
          {state.info.mailed === "yes" ? (
            <>Invitation sent to {state.info.email}.</>
          ) : (
            <div className="grid gap-2">
              <span>
                {state.info.mailed === "failed" ? "The mail could not be sent" : "Email is not configured"}; share this link with{" "}
                {state.info.email} yourself (it works once, for 7 days):
              </span>
              <div className="flex items-center gap-2">
                <code
                  data-testid="invite-link"
                  data-copy={state.info.url?.slice(0, 40)}
                  className="flex-1 overflow-x-auto rounded bg-white px-2 py-1 font-mono text-xs break-all"
                >
                  {state.info.url}
                </code>
                <CopyButton value={state.info.url ?? ""} />
              </div>
            </div>
          )}
        </Notice>
      ) : null}
    </div>
  );
}

export function AcceptInviteForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(acceptInviteAction, {});
  return (
    <form action={action} className="grid gap-3">
      <input type="hidden" name="token" value={token} />
      <FormError state={state} />
      <Button disabled={pending}>{pending ? "Joining…" : "Accept invitation"}</Button>
    </form>
  );
}
