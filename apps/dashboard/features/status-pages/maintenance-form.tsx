"use client";
// Form of the status-page editor: scheduling a maintenance window.
import { Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { ActionForm, err } from "../../ui/action-form";
import { Button, Field, Input } from "../../ui/ui";
import { createMaintenanceAction } from "./actions";
import { MarkdownField } from "./markdown-field";
import type { Choice } from "./shared";

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
