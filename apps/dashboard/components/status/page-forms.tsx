"use client";
// Forms of the status-page editor. Field errors come from the shared zod schemas through core.
import { ArrowDown, ArrowUp, Megaphone, Plus, Save } from "lucide-react";
import { type FormEvent, type ReactNode, startTransition, useActionState, useEffect, useId, useState } from "react";
import type { ActionState } from "../../lib/action-state";
import { renderMarkdown } from "../../lib/markdown";
import {
  addUpdateAction,
  createComponentAction,
  createGroupAction,
  createMaintenanceAction,
  createReportAction,
  createStatusPageAction,
  editReportAction,
  moveAction,
  promoteIncidentAction,
  renameGroupAction,
  updateComponentAction,
  updateStatusPageAction,
} from "../../lib/status-actions";
import { Button, Code, cx, Field, Input, Notice, Select } from "../ui";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

const IMPACTS = [
  ["degraded", "Degraded performance"],
  ["partial_outage", "Partial outage"],
  ["major_outage", "Major outage"],
] as const;
export const REPORT_STATES = [
  ["investigating", "Investigating"],
  ["identified", "Identified"],
  ["monitoring", "Monitoring"],
  ["resolved", "Resolved"],
] as const;
const COMPONENT_STATES = [["operational", "Operational"], ...IMPACTS] as const;

/** A form-wide message when no field carries it (a limit names its key). */
function FormNotice({ state, saved }: { state: ActionState; saved?: string }) {
  if (state.error && !(state.fields && Object.keys(state.fields).length > 0))
    return (
      <div role="alert" data-testid="form-error">
        <Notice tone="red">
          {state.error}
          {state.info?.limit ? (
            <span className="mt-1 block">
              The operator raises it in the workspace's limits (key <Code>{state.info.limit}</Code>).
            </span>
          ) : null}
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
function ActionForm({
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

const err = (state: ActionState, name: string) => state.fields?.[name];

// ── Pages ────────────────────────────────────────────────────────────────────

export function CreatePageForm({ workspaceId }: { workspaceId: number }) {
  return (
    <ActionForm action={createStatusPageAction} hidden={{ workspaceId }} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
      {(state, pending) => (
        <>
          <Field label="Title" name="title" error={err(state, "title")} hint="Shown at the top of the page, e.g. “Acme status”.">
            <Input id="title" name="title" placeholder="Acme status" invalid={!!err(state, "title")} />
          </Field>
          <Field label="Slug" name="slug" error={err(state, "slug")} hint="The page's address: /acme. Lowercase letters, digits, dashes.">
            <Input id="slug" name="slug" placeholder="acme" invalid={!!err(state, "slug")} />
          </Field>
          <Button disabled={pending} className="sm:mt-6.5">
            <Plus className="size-4" aria-hidden />
            {pending ? "Creating…" : "Create page"}
          </Button>
        </>
      )}
    </ActionForm>
  );
}

export interface PageFormValues {
  id: number;
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  links: { label: string; url: string }[];
  theme: string;
  customDomain: string | null;
  passwordProtected: boolean;
  whiteLabel: boolean;
  allowIndex: boolean;
  published: boolean;
}

function Check({ name, label, hint, defaultChecked }: { name: string; label: string; hint: string; defaultChecked: boolean }) {
  return (
    <label htmlFor={name} className="flex items-start gap-3 rounded-lg border border-zinc-200 p-3">
      <input id={name} name={name} type="checkbox" defaultChecked={defaultChecked} className="mt-0.5 size-4 accent-zinc-900" />
      <span>
        <span className="block text-sm font-medium text-zinc-800">{label}</span>
        <span className="block text-xs text-zinc-500">{hint}</span>
      </span>
    </label>
  );
}

export function PageSettingsForm({
  workspaceId,
  page,
  allowed,
}: {
  workspaceId: number;
  page: PageFormValues;
  allowed: { customDomain: boolean; password: boolean; whiteLabel: boolean };
}) {
  const [mode, setMode] = useState(page.passwordProtected ? "keep" : "none");
  const links = [...page.links, ...Array.from({ length: Math.max(0, 3 - page.links.length) }, () => ({ label: "", url: "" }))];
  const off = (on: boolean, key: string) => (on ? undefined : `Not in this workspace's plan (limit “${key}”).`);
  return (
    <ActionForm
      action={updateStatusPageAction}
      hidden={{ workspaceId, pageId: page.id }}
      saved="Saved. The public page shows it within 30 s."
    >
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Title" name="title" error={err(state, "title")}>
              <Input id="title" name="title" defaultValue={page.title} invalid={!!err(state, "title")} />
            </Field>
            <Field label="Slug" name="slug" error={err(state, "slug")} hint="Changing it moves the public address.">
              <Input id="slug" name="slug" defaultValue={page.slug} invalid={!!err(state, "slug")} />
            </Field>
          </div>
          <Field label="Description" name="description" error={err(state, "description")}>
            <textarea
              id="description"
              name="description"
              defaultValue={page.description}
              rows={2}
              className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-xs"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Logo URL" name="logoUrl" error={err(state, "logoUrl")} hint="An https:// image shown next to the title.">
              <Input
                id="logoUrl"
                name="logoUrl"
                defaultValue={page.logoUrl ?? ""}
                placeholder="https://example.com/logo.png"
                invalid={!!err(state, "logoUrl")}
              />
            </Field>
            <Field label="Theme" name="theme" error={err(state, "theme")}>
              <Select id="theme" name="theme" defaultValue={page.theme}>
                <option value="system">Follow the visitor's system</option>
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </Select>
            </Field>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Links in the header</legend>
            {links.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed slots, row i is always the fields link-*-i
              <div key={i} className="grid gap-2 sm:grid-cols-[12rem_1fr]">
                <Input name={`link-label-${i}`} aria-label={`Link ${i + 1} label`} placeholder="Website" defaultValue={l.label} />
                <Input name={`link-url-${i}`} aria-label={`Link ${i + 1} URL`} placeholder="https://example.com" defaultValue={l.url} />
              </div>
            ))}
            {err(state, "links") ? (
              <p className="text-sm text-red-600" role="alert">
                Links {err(state, "links")}
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Custom domain"
            name="customDomain"
            error={err(state, "customDomain")}
            hint={off(allowed.customDomain, "custom-domain") ?? "Point a CNAME at the status-page server; the page answers on that host."}
          >
            <Input
              id="customDomain"
              name="customDomain"
              defaultValue={page.customDomain ?? ""}
              placeholder="status.example.com"
              invalid={!!err(state, "customDomain")}
            />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Password</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {(page.passwordProtected
                ? [
                    ["keep", "Keep the current password"],
                    ["set", "Change it"],
                    ["remove", "Remove (page becomes public)"],
                  ]
                : [
                    ["none", "No password"],
                    ["set", "Protect with a password"],
                  ]
              ).map(([v, label]) => (
                <label key={v} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="passwordMode"
                    value={v}
                    checked={mode === v}
                    onChange={() => setMode(v!)}
                    className="accent-zinc-900"
                  />
                  {label}
                </label>
              ))}
            </div>
            {mode === "set" ? (
              <Field
                label="New password"
                name="password"
                error={err(state, "password")}
                hint={off(allowed.password, "password-protection") ?? "At least 8 characters. Visitors enter it once per week."}
              >
                <Input id="password" name="password" type="password" autoComplete="new-password" invalid={!!err(state, "password")} />
              </Field>
            ) : null}
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-3">
            <Check name="published" label="Published" hint="Unpublished pages answer 404 to visitors." defaultChecked={page.published} />
            <Check
              name="allowIndex"
              label="Search engines may index it"
              hint="Off: the page says noindex."
              defaultChecked={page.allowIndex}
            />
            <Check
              name="whiteLabel"
              label="Hide “Powered by Vigil”"
              hint={off(allowed.whiteLabel, "white-label") ?? "Your page, your brand."}
              defaultChecked={page.whiteLabel}
            />
          </div>
          <div>
            <Button disabled={pending}>
              <Save className="size-4" aria-hidden />
              {pending ? "Saving…" : "Save settings"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

// ── Groups and components ────────────────────────────────────────────────────

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

export interface Choice {
  id: number;
  name: string;
}

function ComponentFields({
  state,
  groups,
  monitors,
  prefix,
  initial,
}: {
  state: ActionState;
  groups: Choice[];
  monitors: Choice[];
  prefix: string;
  initial?: { name: string; description: string; groupId: number | null; monitorId: number | null; staticStatus: string };
}) {
  const [source, setSource] = useState(initial ? (initial.monitorId ? "monitor" : "static") : monitors.length > 0 ? "monitor" : "static");
  const id = (n: string) => `${prefix}-${n}`;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Name" name={id("name")} error={err(state, "name")}>
        <Input id={id("name")} name="name" defaultValue={initial?.name} placeholder="API" invalid={!!err(state, "name")} />
      </Field>
      <Field label="Group" name={id("group")} error={err(state, "groupId")}>
        <Select id={id("group")} name="groupId" defaultValue={initial?.groupId ?? ""}>
          <option value="">No group</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Status comes from" name={id("source")}>
        <Select id={id("source")} name="source" value={source} onChange={(e) => setSource(e.target.value)}>
          <option value="monitor">A monitor's checks</option>
          <option value="static">Set by hand (static)</option>
        </Select>
      </Field>
      {source === "monitor" ? (
        <Field label="Monitor" name={id("monitor")} error={err(state, "monitorId")}>
          <Select id={id("monitor")} name="monitorId" defaultValue={initial?.monitorId ?? ""} invalid={!!err(state, "monitorId")}>
            <option value="">Choose a monitor…</option>
            {monitors.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <Field label="Status" name={id("status")} error={err(state, "staticStatus")}>
          <Select id={id("status")} name="staticStatus" defaultValue={initial?.staticStatus ?? "operational"}>
            {COMPONENT_STATES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <div className="sm:col-span-2">
        <Field label="Description" name={id("description")} error={err(state, "description")} hint="Optional, shown on hover.">
          <Input id={id("description")} name="description" defaultValue={initial?.description} />
        </Field>
      </div>
    </div>
  );
}

export function CreateComponentForm({
  workspaceId,
  pageId,
  groups,
  monitors,
}: {
  workspaceId: number;
  pageId: number;
  groups: Choice[];
  monitors: Choice[];
}) {
  return (
    <ActionForm action={createComponentAction} hidden={{ workspaceId, pageId }} resetOnOk>
      {(state, pending) => (
        <>
          <ComponentFields state={state} groups={groups} monitors={monitors} prefix="new" />
          <div>
            <Button disabled={pending}>
              <Plus className="size-4" aria-hidden />
              {pending ? "Adding…" : "Add component"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function EditComponentForm({
  workspaceId,
  component,
  groups,
  monitors,
}: {
  workspaceId: number;
  component: { id: number; name: string; description: string; groupId: number | null; monitorId: number | null; staticStatus: string };
  groups: Choice[];
  monitors: Choice[];
}) {
  return (
    <ActionForm action={updateComponentAction} hidden={{ workspaceId, componentId: component.id }} saved="Saved.">
      {(state, pending) => (
        <>
          <ComponentFields state={state} groups={groups} monitors={monitors} prefix={`c${component.id}`} initial={component} />
          <div>
            <Button variant="secondary" disabled={pending}>
              {pending ? "Saving…" : "Save component"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

/** Up/down buttons: keyboard users reorder with Tab and Enter. */
export function MoveButtons({
  workspaceId,
  pageId,
  what,
  id,
  name,
  first,
  last,
}: {
  workspaceId: number;
  pageId: number;
  what: "components" | "groups";
  id: number;
  name: string;
  first: boolean;
  last: boolean;
}) {
  const [state, run, pending] = useActionState(moveAction, {});
  const cls =
    "inline-flex size-8 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent";
  return (
    <form action={run} className="flex items-center gap-0.5">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="pageId" value={pageId} />
      <input type="hidden" name="what" value={what} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="dir" value="up" disabled={first || pending} aria-label={`Move ${name} up`} className={cls}>
        <ArrowUp className="size-4" aria-hidden />
      </button>
      <button type="submit" name="dir" value="down" disabled={last || pending} aria-label={`Move ${name} down`} className={cls}>
        <ArrowDown className="size-4" aria-hidden />
      </button>
      {state.error ? <span className="text-xs text-red-600">{state.error}</span> : null}
    </form>
  );
}

// ── Reports ──────────────────────────────────────────────────────────────────

/** A Markdown textarea with a preview rendered the way the public page renders it (no raw HTML, no unsafe links). */
export function MarkdownField({
  name,
  label,
  error,
  defaultValue,
}: {
  name: string;
  label: string;
  error?: string;
  defaultValue?: string;
}) {
  const [value, setValue] = useState(defaultValue ?? "");
  const [preview, setPreview] = useState(false);
  const id = useId();
  const html = preview ? renderMarkdown(value) : "";
  const tab = (on: boolean) =>
    cx("rounded px-2.5 py-1 text-xs font-medium", on ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-600 hover:text-zinc-900");
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800">
          {label}
        </label>
        <div className="flex gap-1 rounded-md bg-zinc-100 p-0.5">
          <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)} className={tab(!preview)}>
            Write
          </button>
          <button type="button" aria-pressed={preview} onClick={() => setPreview(true)} className={tab(preview)}>
            Preview
          </button>
        </div>
      </div>
      <textarea
        id={id}
        name={name}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        rows={5}
        hidden={preview}
        aria-invalid={!!error || undefined}
        placeholder="What is happening, what you are doing, when you expect the next update. Markdown works."
        className={cx(
          "w-full rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-xs",
          error ? "border-red-500" : "border-zinc-300",
        )}
      />
      {preview ? (
        <div
          data-testid="markdown-preview"
          className="markdown min-h-28 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: micromark output, raw HTML escaped and unsafe link protocols dropped
          dangerouslySetInnerHTML={{ __html: html || "<p>Nothing to preview.</p>" }}
        />
      ) : null}
      {error ? (
        <p className="text-sm text-red-600" role="alert">
          {label} {error}
        </p>
      ) : (
        <p className="text-xs text-zinc-500">**bold**, _italic_, [links](https://…), lists. Raw HTML is shown as text.</p>
      )}
    </div>
  );
}

function StateSelect({ id, defaultValue }: { id: string; defaultValue: string }) {
  return (
    <Select id={id} name="status" defaultValue={defaultValue}>
      {REPORT_STATES.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </Select>
  );
}

/** One impact select per component of the page. */
function ImpactFields({ components, impacts, error }: { components: Choice[]; impacts?: Record<number, string>; error?: string }) {
  if (components.length === 0) return <p className="text-sm text-zinc-500">This page has no components yet.</p>;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">Affected components</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {components.map((c) => (
          <div key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-zinc-200 px-3 py-1.5 text-sm">
            <label htmlFor={`impact-${c.id}`} className="min-w-0 flex-1 basis-28 truncate" title={c.name}>
              {c.name}
            </label>
            {/* The select fills this box: its own width rule is w-full. */}
            <div className="w-full min-[26rem]:w-44">
              <Select id={`impact-${c.id}`} name={`impact-${c.id}`} defaultValue={impacts?.[c.id] ?? "none"} className="h-8">
                <option value="none">Not affected</option>
                {IMPACTS.map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </Select>
            </div>
          </div>
        ))}
      </div>
      {error ? (
        <p className="text-sm text-red-600" role="alert">
          Components {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function CreateReportForm({ workspaceId, pageId, components }: { workspaceId: number; pageId: number; components: Choice[] }) {
  return (
    <ActionForm action={createReportAction} hidden={{ workspaceId, pageId }}>
      {(state, pending) => (
        <>
          <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
            <Field label="Title" name="report-title" error={err(state, "title")}>
              <Input id="report-title" name="title" placeholder="Elevated API error rates" invalid={!!err(state, "title")} />
            </Field>
            <Field label="State" name="report-status" error={err(state, "status")}>
              <StateSelect id="report-status" defaultValue="investigating" />
            </Field>
          </div>
          <MarkdownField name="message" label="First update" error={err(state, "message")} />
          <ImpactFields components={components} error={err(state, "components")} />
          <div>
            <Button disabled={pending}>
              <Megaphone className="size-4" aria-hidden />
              {pending ? "Publishing…" : "Publish report"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function AddUpdateForm({ workspaceId, reportId, current }: { workspaceId: number; reportId: number; current: string }) {
  const next = { investigating: "identified", identified: "monitoring", monitoring: "resolved" }[current] ?? current;
  return (
    <ActionForm action={addUpdateAction} hidden={{ workspaceId, reportId }} resetOnOk saved="Update published.">
      {(state, pending) => (
        <>
          <div className="max-w-60">
            <Field label="New state" name="update-status" error={err(state, "status")}>
              <StateSelect id="update-status" defaultValue={next} />
            </Field>
          </div>
          <MarkdownField name="message" label="Message" error={err(state, "message")} />
          <div>
            <Button disabled={pending}>
              <Megaphone className="size-4" aria-hidden />
              {pending ? "Publishing…" : "Publish update"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function EditReportForm({
  workspaceId,
  reportId,
  title,
  components,
  impacts,
}: {
  workspaceId: number;
  reportId: number;
  title: string;
  components: Choice[];
  impacts: Record<number, string>;
}) {
  return (
    <ActionForm action={editReportAction} hidden={{ workspaceId, reportId }} saved="Saved.">
      {(state, pending) => (
        <>
          <Field label="Title" name="edit-title" error={err(state, "title")}>
            <Input id="edit-title" name="title" defaultValue={title} invalid={!!err(state, "title")} />
          </Field>
          <ImpactFields components={components} impacts={impacts} error={err(state, "components")} />
          <div>
            <Button variant="secondary" disabled={pending}>
              {pending ? "Saving…" : "Save report"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function PromoteButton({
  workspaceId,
  pageId,
  incidentId,
  monitor,
}: {
  workspaceId: number;
  pageId: number;
  incidentId: number;
  monitor: string;
}) {
  return (
    <ActionForm action={promoteIncidentAction} hidden={{ workspaceId, pageId, incidentId }} className="grid justify-items-end gap-1">
      {(_state, pending) => (
        <Button
          variant="secondary"
          disabled={pending}
          className="h-8 px-2.5 text-xs"
          aria-label={`Promote the ${monitor} incident to a report`}
        >
          <Megaphone className="size-3.5" aria-hidden />
          {pending ? "Promoting…" : "Promote to report"}
        </Button>
      )}
    </ActionForm>
  );
}

// ── Maintenance ──────────────────────────────────────────────────────────────

/** `datetime-local` value for a time in the browser's zone. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

export function MaintenanceForm({
  workspaceId,
  pageId,
  components,
  monitors,
}: {
  workspaceId: number;
  pageId: number;
  components: Choice[];
  monitors: Choice[];
}) {
  const [tz, setTz] = useState(0);
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  useEffect(() => {
    // The browser knows the zone the times are typed in; the defaults are the next full hour, for one hour.
    setTz(new Date().getTimezoneOffset());
    const next = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
    setStart(localInput(next));
    setEnd(localInput(next + 3_600_000));
  }, []);
  const pick = (name: string, items: Choice[], legend: string) =>
    items.length === 0 ? null : (
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">{legend}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1.5">
          {items.map((c) => (
            <label key={c.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={name} value={c.id} className="size-4 accent-zinc-900" />
              {c.name}
            </label>
          ))}
        </div>
      </fieldset>
    );
  return (
    <ActionForm action={createMaintenanceAction} hidden={{ workspaceId, pageId, tzOffset: tz }} resetOnOk saved="Maintenance scheduled.">
      {(state, pending) => (
        <>
          <Field label="Title" name="mw-title" error={err(state, "title")}>
            <Input id="mw-title" name="title" placeholder="Database upgrade" invalid={!!err(state, "title")} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="From" name="startsAt" error={err(state, "startsAt")} hint="Your local time.">
              <Input
                id="startsAt"
                name="startsAt"
                type="datetime-local"
                value={start}
                onChange={(e) => setStart(e.target.value)}
                invalid={!!err(state, "startsAt")}
              />
            </Field>
            <Field label="To" name="endsAt" error={err(state, "endsAt")}>
              <Input
                id="endsAt"
                name="endsAt"
                type="datetime-local"
                value={end}
                onChange={(e) => setEnd(e.target.value)}
                invalid={!!err(state, "endsAt")}
              />
            </Field>
          </div>
          <MarkdownField name="message" label="What visitors should know (optional)" error={err(state, "message")} />
          {pick("component", components, "Components shown under maintenance")}
          {pick("monitor", monitors, "Monitors whose alerts are held back")}
          {err(state, "components") || err(state, "monitors") ? (
            <p className="text-sm text-red-600" role="alert">
              {err(state, "components") ?? err(state, "monitors")}
            </p>
          ) : null}
          <div>
            <Button disabled={pending}>
              <Plus className="size-4" aria-hidden />
              {pending ? "Scheduling…" : "Schedule maintenance"}
            </Button>
          </div>
        </>
      )}
    </ActionForm>
  );
}
