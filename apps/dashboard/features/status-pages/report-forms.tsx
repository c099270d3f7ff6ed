"use client";
// Forms of the status-page editor: incident reports and their updates.
import { Megaphone } from "lucide-react";
import { ActionForm, err } from "../../ui/action-form";
import { Button, Field, Input, Select } from "../../ui/ui";
import { addUpdateAction, createReportAction, editReportAction, promoteIncidentAction } from "./actions";
import { MarkdownField } from "./markdown-field";
import { type Choice, IMPACTS, REPORT_STATES } from "./shared";

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
