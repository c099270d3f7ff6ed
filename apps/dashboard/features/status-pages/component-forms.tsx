"use client";
// Forms of the status-page editor: components, and reordering components and groups.
import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { useActionState, useState } from "react";
import type { ActionState } from "../../lib/action-state";
import { ActionForm, err } from "../../ui/action-form";
import { Button, Field, Input, Select } from "../../ui/ui";
import { createComponentAction, moveAction, updateComponentAction } from "./actions";
import { type Choice, COMPONENT_STATES } from "./shared";

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
