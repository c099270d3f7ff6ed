"use client";
import { KeyRound, Plus, Send } from "lucide-react";
import { useActionState, useEffect, useState } from "react";
import type { ActionState } from "../lib/action-state";
import {
  acceptInviteAction,
  createApiKeyAction,
  createLocationAction,
  inviteAction,
  renameWorkspaceAction,
  signInWithEmail,
} from "../lib/actions";
import { CopyButton, Snippet } from "../ui/copy-button";
import { Modal } from "../ui/dialog";
import { LiftHint } from "../ui/lift-hint";
import { Button, Field, Input, Notice, Select } from "../ui/ui";

function FormError({ state }: { state: ActionState }) {
  if (!state.error || (state.fields && Object.keys(state.fields).length > 0)) return null;
  return (
    <p className="text-sm text-red-600" role="alert">
      {state.error}
      <LiftHint info={state.info} />
    </p>
  );
}

/** Opens the success dialog once per successful submission. */
function useShown(state: ActionState) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (state.ok && state.at) setOpen(true);
  }, [state.ok, state.at]);
  return [open, setOpen] as const;
}

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState(signInWithEmail, {});
  return (
    <form action={action} className="grid gap-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field label="Email" name="email" error={state.fields?.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          required
          invalid={!!state.fields?.email}
          aria-describedby="email-error"
        />
      </Field>
      <FormError state={state} />
      <Button disabled={pending} className="w-full">
        <Send className="size-4" aria-hidden />
        {pending ? "Sending…" : "Email me a sign-in link"}
      </Button>
    </form>
  );
}

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
        <Button disabled={pending} className="sm:mt-6.5">
          <KeyRound className="size-4" aria-hidden />
          {pending ? "Creating…" : "Create key"}
        </Button>
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

export function CreateLocationForm({
  workspaceId,
  groups,
  cities,
}: {
  workspaceId: number;
  groups: { area: string; regions: string[] }[];
  cities: Record<string, string>;
}) {
  const [state, action, pending] = useActionState(createLocationAction, {});
  const [open, setOpen] = useShown(state);
  const key = state.secret ?? "";
  const ingest = state.info?.ingestUrl ?? "";
  const slug =
    (state.info?.name ?? "probe")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "probe";
  const dockerRun = [
    `docker run -d --name vigil-probe-${slug} --restart unless-stopped \\`,
    `  -e SERVICE_KEY=${key} \\`,
    `  -e SERVICE_INGEST_URL=${ingest} \\`,
    `  -v vigil-probe-${slug}:/data/probe \\`,
    "  vigil-private-location:latest",
  ].join("\n");
  const compose = [
    "services:",
    "  private-location:",
    "    image: vigil-private-location:latest",
    "    restart: unless-stopped",
    "    environment:",
    `      SERVICE_KEY: ${key}`,
    `      SERVICE_INGEST_URL: ${ingest}`,
    "    volumes:",
    "      - probe-data:/data/probe",
    "volumes:",
    "  probe-data:",
  ].join("\n");
  const envLines = `SERVICE_KEY=${key}\nSERVICE_INGEST_URL=${ingest}`;
  return (
    <>
      <form action={action} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <Field label="Name" name="name" error={state.fields?.name} hint="Where it runs, e.g. “office-rack-1”.">
          <Input id="name" name="name" placeholder="office-rack-1" invalid={!!state.fields?.name} />
        </Field>
        <Field label="Region" name="region" error={state.fields?.region} hint="Monitors listing this region run on it.">
          <Select id="region" name="region" defaultValue="iad" invalid={!!state.fields?.region}>
            {groups.map((g) => (
              <optgroup key={g.area} label={g.area}>
                {g.regions.map((r) => (
                  <option key={r} value={r}>
                    {cities[r]} ({r})
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        </Field>
        <Button disabled={pending} className="sm:mt-6.5">
          <Plus className="size-4" aria-hidden />
          {pending ? "Creating…" : "Create location"}
        </Button>
      </form>
      <div className="mt-3">
        {state.error && !state.fields?.name && !state.fields?.region ? <Notice tone="red">{state.error}</Notice> : null}
      </div>
      <Modal
        wide
        open={open}
        onOpenChange={setOpen}
        title={`Private location “${state.info?.name ?? ""}” created`}
        description="Start a probe with this SERVICE_KEY. It is shown only once: copy one of the blocks below now."
      >
        <div className="grid gap-4">
          <div className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-2">
            <span className="text-xs font-medium text-zinc-500">SERVICE_KEY</span>
            <code data-testid="secret" className="flex-1 overflow-x-auto font-mono text-sm break-all">
              {key}
            </code>
            <CopyButton value={key} />
          </div>
          <Snippet title="docker run" value={dockerRun} />
          <Snippet title="docker-compose.yaml" value={compose} />
          <Snippet title=".env" value={envLines} />
        </div>
      </Modal>
    </>
  );
}

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
        <Button disabled={pending} className="sm:mt-6.5">
          <Send className="size-4" aria-hidden />
          {pending ? "Inviting…" : "Send invitation"}
        </Button>
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
