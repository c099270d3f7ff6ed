"use client";
import { KeyRound, ShieldCheck } from "lucide-react";
import { useActionState } from "react";
import type { ActionState } from "../../lib/action-state";
import { CopyButton } from "../../ui/copy-button";
import { Button, Field, Input, Notice, PendingSubmit, Select } from "../../ui/ui";
import {
  changeRoleAction,
  confirmTotpAction,
  removeTotpAction,
  rotatePingKeyAction,
  setPingAutoCreateAction,
  setSecondFactorRuleAction,
  startTotpAction,
  verifySecondFactorAction,
} from "./actions";

function Problem({ state }: { state: ActionState }) {
  if (!state.error || state.fields?.code) return null;
  return (
    <p className="text-sm text-red-600" role="alert">
      {state.error}
    </p>
  );
}

function CodeField({ state, label, hint }: { state: ActionState; label: string; hint?: string }) {
  return (
    <Field label={label} name="code" error={state.fields?.code} hint={hint}>
      <Input
        id="code"
        name="code"
        inputMode="text"
        autoComplete="one-time-code"
        autoFocus
        placeholder="123456"
        className="font-mono tracking-widest"
        invalid={!!state.fields?.code}
      />
    </Field>
  );
}

/** The code page's form: the authenticator's current code, or one recovery code. */
export function SecondFactorForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState(verifySecondFactorAction, {});
  return (
    <form action={action} className="grid gap-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <CodeField state={state} label="Code" hint="The 6 digits your authenticator app shows, or one of your recovery codes." />
      <Problem state={state} />
      <PendingSubmit pending={pending} icon={ShieldCheck} busy="Checking…" className="w-full">
        Continue
      </PendingSubmit>
    </form>
  );
}

/** Enrolment: a QR code (and the key to type in), then a code from the app confirms it and shows the recovery codes once. */
export function TotpSetup() {
  const [started, start, starting] = useActionState(startTotpAction, {});
  const [confirmed, confirm, confirming] = useActionState(confirmTotpAction, {});
  const pendingInfo = confirmed.info?.uri ? confirmed.info : started.info;
  if (confirmed.ok && confirmed.secret) {
    const codes = confirmed.secret.split("\n");
    return (
      <div className="grid gap-3" data-testid="recovery-codes">
        <Notice tone="indigo">
          Your authenticator app is set up. Keep these recovery codes somewhere safe: each signs you in once if you lose the app. They are
          shown only now.
        </Notice>
        <ul className="grid grid-cols-2 gap-1 rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-sm sm:grid-cols-5">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div>
          <CopyButton value={codes.join("\n")} />
        </div>
        <a href="/account" className="text-sm text-indigo-700 underline">
          Done
        </a>
      </div>
    );
  }
  if (!pendingInfo?.uri) {
    return (
      <form action={start} className="grid gap-3">
        <Problem state={started} />
        <div>
          <Button disabled={starting}>
            <KeyRound className="size-4" aria-hidden />
            {starting ? "Preparing…" : "Set up an authenticator app"}
          </Button>
        </div>
      </form>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
      <div
        className="size-48 rounded-lg border border-zinc-200 bg-white"
        role="img"
        aria-label="QR code to scan with your authenticator app"
        // The SVG is made on our server from the otpauth URI, never from user input.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own generated SVG
        dangerouslySetInnerHTML={{ __html: pendingInfo.qr ?? "" }}
      />
      <form action={confirm} className="grid content-start gap-3" noValidate>
        <input type="hidden" name="secret" value={pendingInfo.secret} />
        <input type="hidden" name="uri" value={pendingInfo.uri} />
        <p className="text-sm text-zinc-600">
          Scan the code with an authenticator app (1Password, Google Authenticator, Aegis…), or type this key into it:
        </p>
        <code data-testid="totp-secret" className="rounded bg-zinc-100 px-2 py-1 font-mono text-sm break-all">
          {pendingInfo.secret}
        </code>
        <details className="text-xs text-zinc-500">
          <summary className="cursor-pointer">The otpauth link</summary>
          <code data-testid="totp-uri" className="break-all">
            {pendingInfo.uri}
          </code>
        </details>
        <CodeField state={confirmed} label="Code from the app" />
        <Problem state={confirmed} />
        <div>
          <Button disabled={confirming}>{confirming ? "Checking…" : "Confirm"}</Button>
        </div>
      </form>
    </div>
  );
}

export function RemoveTotpForm() {
  const [state, action, pending] = useActionState(removeTotpAction, {});
  return (
    <form action={action} className="grid gap-3 sm:max-w-sm" noValidate>
      <CodeField state={state} label="A current code or a recovery code" />
      <Problem state={state} />
      <div>
        <Button variant="danger" disabled={pending}>
          {pending ? "Removing…" : "Remove the authenticator app"}
        </Button>
      </div>
    </form>
  );
}

/** A workspace rule that is on or off: one checkbox and Save. */
function WorkspaceSwitchForm({
  workspaceId,
  act,
  name,
  on,
  children,
}: {
  workspaceId: number;
  act: (prev: ActionState, form: FormData) => Promise<ActionState>;
  name: string;
  on: boolean;
  children: React.ReactNode;
}) {
  const [state, action, pending] = useActionState(act, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={name} defaultChecked={on} className="size-4" />
        {children}
      </label>
      <Button variant="secondary" disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </Button>
      {state.ok ? <span className="text-sm text-green-700">Saved.</span> : null}
      <Problem state={state} />
    </form>
  );
}

/** Owners only: every member signs in with a second factor before using the workspace. */
export function SecondFactorRuleForm({ workspaceId, required }: { workspaceId: number; required: boolean }) {
  return (
    <WorkspaceSwitchForm workspaceId={workspaceId} act={setSecondFactorRuleAction} name="required" on={required}>
      Members must sign in with an authenticator app (TOTP)
    </WorkspaceSwitchForm>
  );
}

/** Owners and admins: make or replace the workspace's ping key. */
export function RotatePingKeyForm({ workspaceId, exists }: { workspaceId: number; exists: boolean }) {
  const [state, action, pending] = useActionState(rotatePingKeyAction, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <Button variant="secondary" disabled={pending}>
        {pending ? "Working…" : exists ? "Replace the ping key" : "Make a ping key"}
      </Button>
      {exists ? <span className="text-xs text-zinc-500">Every URL with the current key stops working at once.</span> : null}
      <Problem state={state} />
    </form>
  );
}

/** Owners and admins: whether a ping by name with `?create=1` may make a missing heartbeat. */
export function PingAutoCreateForm({ workspaceId, on }: { workspaceId: number; on: boolean }) {
  return (
    <WorkspaceSwitchForm workspaceId={workspaceId} act={setPingAutoCreateAction} name="autoCreate" on={on}>
      A ping by name with <code className="font-mono text-xs">?create=1</code> makes a heartbeat that does not exist yet
    </WorkspaceSwitchForm>
  );
}

/** A member's role, changed in place by owners and admins. */
export function RoleForm({
  workspaceId,
  userId,
  role,
  choices,
}: {
  workspaceId: number;
  userId: string;
  role: string;
  choices: readonly string[];
}) {
  const [state, action, pending] = useActionState(changeRoleAction, {});
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="userId" value={userId} />
      <Select name="role" defaultValue={role} aria-label="Role" className="h-8 w-28 py-0 text-xs">
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Select>
      <Button variant="secondary" className="h-8 px-2.5 text-xs" disabled={pending}>
        {pending ? "…" : "Set"}
      </Button>
      {state.error ? (
        <span className="text-xs text-red-600" role="alert">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
