"use client";
// The instance area's forms (instance admins only; the actions check it again on the server).
import { LIMIT_HELP, LIMIT_KEYS, type Limits, PRESET_NAMES } from "@vigil/limits";
import { ActionForm, err } from "../../ui/action-form";
import { Snippet } from "../../ui/copy-button";
import { Button, Field, Input, Notice, Select } from "../../ui/ui";
import {
  applyPresetAction,
  createAdminTokenAction,
  createWorkspaceForAction,
  inviteToInstanceAction,
  revokeAdminTokenAction,
  saveLimitsAction,
  setPlanAction,
  setUserDisabledAction,
} from "./actions";

const FREQUENCIES = ["30s", "1m", "5m", "10m", "30m", "1h"] as const;

function PresetSelect({ id, value = "team" }: { id: string; value?: string }) {
  return (
    <Select id={id} name="preset" defaultValue={value}>
      {PRESET_NAMES.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </Select>
  );
}

export function ApplyPresetForm({ workspaceId }: { workspaceId: number }) {
  return (
    <ActionForm
      action={applyPresetAction}
      hidden={{ workspaceId }}
      saved="Preset applied: the new limits are in force now."
      className="grid gap-3"
    >
      {(_s, pending) => (
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid min-w-40 flex-1 gap-1.5">
            <label htmlFor="preset" className="text-sm font-medium text-zinc-800">
              Preset
            </label>
            <PresetSelect id="preset" />
          </div>
          <Button disabled={pending}>{pending ? "Applying…" : "Apply preset"}</Button>
        </div>
      )}
    </ActionForm>
  );
}

/** All 17 keys with what each allows; saving writes exactly these values. */
export function LimitsForm({ workspaceId, limits }: { workspaceId: number; limits: Limits }) {
  return (
    <ActionForm action={saveLimitsAction} hidden={{ workspaceId }} saved="Limits saved: in force now.">
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            {LIMIT_KEYS.map((key) => {
              const v = limits[key];
              const { label, help } = LIMIT_HELP[key];
              const id = `limit-${key}`;
              if (typeof v === "boolean")
                return (
                  <div key={key} className="grid gap-1">
                    <input type="hidden" name={key} value="false" />
                    <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-zinc-800">
                      <input id={id} type="checkbox" name={key} value="true" defaultChecked={v} className="size-4" />
                      {label} <code className="font-mono text-xs text-zinc-500">{key}</code>
                    </label>
                    <p className="text-xs text-zinc-500">{help}</p>
                    {err(state, key) ? <p className="text-sm text-red-600">{err(state, key)}</p> : null}
                  </div>
                );
              if (Array.isArray(v))
                return (
                  <fieldset key={key} className="grid min-w-0 gap-1">
                    <legend className="text-sm font-medium text-zinc-800">
                      {label} <code className="font-mono text-xs text-zinc-500">{key}</code>
                    </legend>
                    <div className="flex flex-wrap gap-3">
                      {FREQUENCIES.map((f) => (
                        <label key={f} className="flex items-center gap-1 text-sm">
                          <input type="checkbox" name={key} value={f} defaultChecked={v.includes(f)} className="size-4" />
                          {f}
                        </label>
                      ))}
                    </div>
                    <p className="text-xs text-zinc-500">{help}</p>
                    {err(state, key) ? <p className="text-sm text-red-600">{err(state, key)}</p> : null}
                  </fieldset>
                );
              return (
                <Field key={key} label={`${label} (${key})`} name={id} error={err(state, key)} hint={help}>
                  <Input id={id} name={key} defaultValue={typeof v === "number" ? v.toLocaleString("en") : v} invalid={!!err(state, key)} />
                </Field>
              );
            })}
          </div>
          <div>
            <Button disabled={pending}>{pending ? "Saving…" : "Save limits"}</Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

const isoDate = (s: number | null) => (s ? new Date(s * 1000).toISOString().slice(0, 10) : "");

export function PlanForm({
  workspaceId,
  plan,
  paidUntil,
  endsAt,
}: {
  workspaceId: number;
  plan: string | null;
  paidUntil: number | null;
  endsAt: number | null;
}) {
  return (
    <ActionForm action={setPlanAction} hidden={{ workspaceId }} saved="Plan saved.">
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Plan" name="plan" error={err(state, "plan")} hint="A name for people (team, custom…).">
              <Input id="plan" name="plan" defaultValue={plan ?? ""} invalid={!!err(state, "plan")} />
            </Field>
            <Field label="Paid until" name="paidUntil" error={err(state, "paidUntil")} hint="Empty: not tracked. Past: restricted.">
              <Input id="paidUntil" name="paidUntil" type="date" defaultValue={isoDate(paidUntil)} />
            </Field>
            <Field label="Ends at" name="endsAt" error={err(state, "endsAt")} hint="Empty: no end. Past: restricted.">
              <Input id="endsAt" name="endsAt" type="date" defaultValue={isoDate(endsAt)} />
            </Field>
          </div>
          <div>
            <Button disabled={pending}>{pending ? "Saving…" : "Save plan"}</Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function CreateForForm() {
  return (
    <ActionForm action={createWorkspaceForAction} hidden={{}} resetOnOk>
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Owner's e-mail" name="for-email" error={err(state, "email")}>
              <Input id="for-email" name="email" type="email" placeholder="ana@example.com" invalid={!!err(state, "email")} />
            </Field>
            <Field label="Workspace name" name="for-name" error={err(state, "name")} hint="Optional.">
              <Input id="for-name" name="name" />
            </Field>
            <div className="grid gap-1.5">
              <label htmlFor="for-preset" className="text-sm font-medium text-zinc-800">
                Limits preset
              </label>
              <PresetSelect id="for-preset" />
            </div>
          </div>
          <div>
            <Button disabled={pending}>{pending ? "Creating…" : "Create workspace"}</Button>
          </div>
          {state.ok && state.info ? (
            <Notice tone="indigo">
              Workspace {state.info.workspace} is made for {state.info.email}.{" "}
              {state.info.joined
                ? "They already had an account and are its owner now."
                : "Send them this link (it was mailed too when mail is set up):"}
              {state.info.url ? (
                <span className="mt-2 block">
                  <Snippet title="Invitation link" value={state.info.url} />
                </span>
              ) : null}
            </Notice>
          ) : null}
        </>
      )}
    </ActionForm>
  );
}

export function InviteToInstanceForm() {
  return (
    <ActionForm action={inviteToInstanceAction} hidden={{}} resetOnOk>
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="E-mail" name="inv-email" error={err(state, "email")}>
              <Input id="inv-email" name="email" type="email" placeholder="ana@example.com" invalid={!!err(state, "email")} />
            </Field>
            <div className="grid gap-1.5">
              <label htmlFor="inv-preset" className="text-sm font-medium text-zinc-800">
                Their workspace's preset
              </label>
              <PresetSelect id="inv-preset" value="restricted" />
            </div>
          </div>
          <div>
            <Button disabled={pending}>{pending ? "Inviting…" : "Invite"}</Button>
          </div>
          {state.ok && state.info ? (
            <Notice tone="indigo">
              {state.info.email} may sign in now at {state.info.signin}; their first sign-in makes their workspace.
            </Notice>
          ) : null}
        </>
      )}
    </ActionForm>
  );
}

export function UserDisableForm({ userId, disabled, email }: { userId: string; disabled: boolean; email: string }) {
  return (
    <ActionForm action={setUserDisabledAction} hidden={{ userId, disabled: String(!disabled) }} className="grid gap-1">
      {(_s, pending) => (
        <Button variant={disabled ? "secondary" : "danger"} disabled={pending} aria-label={`${disabled ? "Enable" : "Disable"} ${email}`}>
          {disabled ? "Enable" : "Disable"}
        </Button>
      )}
    </ActionForm>
  );
}

export function CreateAdminTokenForm() {
  return (
    <ActionForm action={createAdminTokenAction} hidden={{}} resetOnOk>
      {(state, pending) => (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-48 flex-1">
              <Field label="Token name" name="token-name" error={err(state, "name")}>
                <Input id="token-name" name="name" placeholder="ops laptop" invalid={!!err(state, "name")} />
              </Field>
            </div>
            <Button disabled={pending}>{pending ? "Creating…" : "Create token"}</Button>
          </div>
          {state.ok && state.secret ? (
            <Notice tone="indigo">
              Shown once: use it as <code>vigil admin --token …</code> or <code>Authorization: Bearer …</code> on <code>/v1/admin</code>.
              <span className="mt-2 block">
                <Snippet title="Instance-admin token" value={state.secret} />
              </span>
            </Notice>
          ) : null}
        </>
      )}
    </ActionForm>
  );
}

export function RevokeAdminTokenForm({ tokenId, name }: { tokenId: number; name: string }) {
  return (
    <ActionForm action={revokeAdminTokenAction} hidden={{ tokenId }} className="grid gap-1">
      {(_s, pending) => (
        <Button variant="secondary" disabled={pending} aria-label={`Revoke ${name}`}>
          Revoke
        </Button>
      )}
    </ActionForm>
  );
}
