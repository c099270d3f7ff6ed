"use client";
// Over 300 lines: one form for every channel kind, its fields drawn from the kind's schema.
import { originOf } from "@vigil/api-contract";
import { Lock, Plus, Save, X } from "lucide-react";
import { useActionState, useState } from "react";
import { LiftHint } from "../../ui/lift-hint";
import { Badge, Button, Field, Input, Notice, Select } from "../../ui/ui";
import { createChannelAction, updateChannelAction } from "./actions";
import type { ChannelFormState, FieldSpec, FormValues, KindSpec } from "./channel-model";

const INPUT_TYPE: Partial<Record<FieldSpec["type"], string>> = { url: "url", email: "email", number: "number" };

function SecretState({ set }: { set: boolean }) {
  return (
    <Badge tone={set ? "green" : "zinc"}>
      <Lock className="size-3" aria-hidden />
      {set ? "set" : "not set"}
    </Badge>
  );
}

/** Name/value rows (webhook headers): rows come and go on the client, the server reads them as pairs. */
function MapField({
  spec,
  initial,
  error,
  editing,
  moved,
}: {
  spec: FieldSpec;
  initial: { name: string; value: string }[];
  error?: string;
  editing: boolean;
  moved: Moved;
}) {
  const name = `config.${spec.key}`;
  const [rows, setRows] = useState(() => initial.map((r, i) => ({ ...r, id: i, kept: editing && spec.secret })));
  const [next, setNext] = useState(initial.length);
  const add = () => {
    setRows((r) => [...r, { name: "", value: "", id: next, kept: false }]);
    setNext((n) => n + 1);
  };
  return (
    <fieldset className="grid gap-1.5" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">
        {spec.label} {spec.secret ? <span className="ml-1 text-xs font-normal text-zinc-500">(values write-only)</span> : null}
      </legend>
      {rows.length === 0 ? <p className="text-sm text-zinc-500">None.</p> : null}
      {rows.some((r) => r.kept) ? <MovedNote moved={moved} testId={`moved-${spec.key}`} /> : null}
      {rows.map((r, i) => (
        <div key={r.id} className="flex items-center gap-2">
          {r.kept ? <input type="hidden" name={`${name}.kept`} value={r.name} /> : null}
          <Input
            name={`${name}.name`}
            aria-label={`${spec.label} ${i + 1} name`}
            defaultValue={r.name}
            placeholder="Authorization"
            className="font-mono"
            invalid={!!error}
          />
          <Input
            name={`${name}.value`}
            aria-label={`${spec.label} ${i + 1} value`}
            defaultValue={r.value}
            type={spec.secret ? "password" : "text"}
            autoComplete="off"
            placeholder={r.kept ? (moved ? `enter again for ${moved.to}` : "set — leave blank to keep") : "value"}
            className="font-mono"
            invalid={!!error}
          />
          <button
            type="button"
            onClick={() => setRows((all) => all.filter((x) => x.id !== r.id))}
            className="rounded-md p-2 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
            aria-label={`Remove ${spec.label.toLowerCase()} ${i + 1}`}
          >
            <X className="size-4" aria-hidden />
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={add} className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline">
          <Plus className="size-4" aria-hidden /> Add {spec.label.toLowerCase().replace(/s$/, "")}
        </button>
      </div>
      {error ? (
        <p id={`${name}-error`} className="text-sm text-red-600" role="alert">
          {spec.label} {error}
        </p>
      ) : spec.help ? (
        <p className="text-xs text-zinc-500">{spec.help}</p>
      ) : null}
    </fieldset>
  );
}

/** The destination's origin changed since it was stored: stored secrets are not sent there. */
type Moved = { from: string; to: string } | null;

function MovedNote({ moved, testId }: { moved: Moved; testId: string }) {
  if (!moved) return null;
  return (
    <p className="text-xs text-amber-700" data-testid={testId}>
      The URL now goes to {moved.to} (was {moved.from}): a stored secret is only sent to the origin it was entered for. Enter it again, or
      the change is refused.
    </p>
  );
}

/** One control for one schema field; secrets are never pre-filled, only said to be set or not. */
function ConfigField({
  spec,
  values,
  error,
  editing,
  moved,
  onDestination,
}: {
  spec: FieldSpec;
  values: FormValues;
  error?: string;
  editing: boolean;
  moved: Moved;
  /** Set on the destination field: reports what the user types. */
  onDestination?: (url: string) => void;
}) {
  const name = `config.${spec.key}`;
  if (spec.type === "map")
    return <MapField spec={spec} initial={values.maps[spec.key] ?? []} error={error} editing={editing} moved={moved} />;
  const label = spec.required ? spec.label : `${spec.label} (optional)`;
  const help = spec.help;
  if (spec.type === "boolean") {
    const checked = (values.values[spec.key] ?? spec.defaultValue) === true;
    return (
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name={name} defaultChecked={checked} className="mt-0.5 size-4" />
        <span>
          <span className="font-medium text-zinc-800">{spec.label}</span>
          {help ? <span className="block text-xs text-zinc-500">{help}</span> : null}
          {error ? <span className="block text-sm text-red-600">{error}</span> : null}
        </span>
      </label>
    );
  }
  if (spec.type === "enum") {
    const current = String(values.values[spec.key] ?? spec.defaultValue ?? spec.options?.[0] ?? "");
    return (
      <Field label={label} name={name} error={error} hint={help}>
        <Select id={name} name={name} defaultValue={current} invalid={!!error}>
          {spec.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      </Field>
    );
  }
  if (spec.type === "list") {
    return (
      <Field label={label} name={name} error={error} hint={help ? `${help} One per line.` : "One per line."}>
        <textarea
          id={name}
          name={name}
          rows={3}
          defaultValue={(values.lists[spec.key] ?? []).join("\n")}
          aria-invalid={!!error || undefined}
          className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm shadow-xs"
        />
      </Field>
    );
  }
  const isSet = values.set[spec.key] ?? false;
  if (spec.secret && editing) {
    return (
      <div className="grid gap-1.5">
        <Field label={label} name={name} error={error} hint={help}>
          <div className="flex items-center gap-2">
            <Input
              id={name}
              name={name}
              type="password"
              autoComplete="off"
              placeholder={isSet ? (moved ? `enter again for ${moved.to}` : "set — leave blank to keep") : (spec.example ?? "")}
              invalid={!!error}
              aria-describedby={error ? `${name}-error` : undefined}
            />
            <span data-testid={`secret-${spec.key}`}>
              <SecretState set={isSet} />
            </span>
          </div>
        </Field>
        {isSet ? <MovedNote moved={moved} testId={`moved-${spec.key}`} /> : null}
        {isSet ? <input type="hidden" name={`${name}.set`} value="1" /> : null}
        {isSet && !spec.required ? (
          <label className="flex items-center gap-2 text-xs text-zinc-600">
            <input type="checkbox" name={`${name}.clear`} className="size-3.5" /> Remove the stored {spec.label.toLowerCase()}
          </label>
        ) : null}
      </div>
    );
  }
  return (
    <Field label={label} name={name} error={error} hint={help}>
      <Input
        id={name}
        name={name}
        type={spec.secret ? "password" : (INPUT_TYPE[spec.type] ?? "text")}
        autoComplete="off"
        defaultValue={spec.secret ? undefined : String(values.values[spec.key] ?? "")}
        onChange={onDestination ? (e) => onDestination(e.target.value) : undefined}
        placeholder={spec.example ?? ""}
        invalid={!!error}
        aria-describedby={error ? `${name}-error` : undefined}
      />
    </Field>
  );
}

const EMPTY: FormValues = { values: {}, set: {}, maps: {}, lists: {} };

/** The create / edit form of any channel kind, generated from its config schema. */
export function ChannelForm({
  workspaceId,
  spec,
  channel,
}: {
  workspaceId: number;
  spec: KindSpec;
  /** Editing: the channel's id, name and what its stored config may show. */
  channel?: { id: number; name: string; values: FormValues; timeoutMs?: number };
}) {
  const editing = channel !== undefined;
  const [state, action, pending] = useActionState<ChannelFormState, FormData>(editing ? updateChannelAction : createChannelAction, {});
  const stored = channel?.values ?? EMPTY;
  // After an error the form resets to its defaults: make those what the user typed.
  const typed = Object.fromEntries(
    Object.entries(state.values ?? {})
      .filter(([k]) => k.startsWith("config."))
      .map(([k, v]) => [k.slice(7), v]),
  );
  const values = { ...stored, values: { ...stored.values, ...typed } };
  const fields = state.fields ?? {};
  // The same rule core enforces: a secret left as stored keeps it only for the origin it was stored for.
  const storedDestination = spec.destination ? String(stored.values[spec.destination] ?? "") : "";
  const [destination, setDestination] = useState(spec.destination ? String(values.values[spec.destination] ?? "") : "");
  const [from, to] = [originOf(storedDestination), originOf(destination)];
  const moved: Moved = editing && from !== to ? { from: from ?? "the default", to: to ?? "the default" } : null;
  const formError = state.error && Object.keys(fields).length === 0 ? state.error : null;
  return (
    <form action={action} className="grid gap-5" noValidate data-testid="channel-form">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <input type="hidden" name="kind" value={spec.kind} />
      {channel ? <input type="hidden" name="id" value={channel.id} /> : null}
      <Field label="Name" name="name" error={fields.name} hint="How this channel is listed, e.g. “#ops on Slack”.">
        <Input
          id="name"
          name="name"
          defaultValue={state.values?.name ?? channel?.name ?? ""}
          maxLength={100}
          placeholder="ops alerts"
          invalid={!!fields.name}
        />
      </Field>
      {spec.fields.map((f) => (
        <ConfigField
          key={f.key}
          spec={f}
          values={values}
          error={fields[`config.${f.key}`]}
          editing={editing}
          moved={moved}
          onDestination={f.key === spec.destination ? setDestination : undefined}
        />
      ))}
      <Field
        label="Answer timeout (seconds)"
        name="timeoutMs"
        error={fields.timeoutMs}
        hint="How long one delivery waits for the receiver before a retry is planned, 1-30 s. A later answer still counts, and nothing is sent again while one is on its way."
      >
        <Input
          id="timeoutMs"
          name="timeoutSeconds"
          type="number"
          min={1}
          max={30}
          step={1}
          defaultValue={state.values?.timeoutSeconds ?? String((channel?.timeoutMs ?? 10_000) / 1000)}
          invalid={!!fields.timeoutMs}
        />
      </Field>
      {formError ? (
        <div role="alert" data-testid="form-error">
          <Notice tone="red">
            {formError}
            <LiftHint info={state.info} />
          </Notice>
        </div>
      ) : null}
      <div className="flex items-center gap-3">
        <Button disabled={pending}>
          {editing ? <Save className="size-4" aria-hidden /> : <Plus className="size-4" aria-hidden />}
          {pending ? "Saving…" : editing ? "Save changes" : "Create channel"}
        </Button>
        {state.ok && editing ? (
          <span className="text-sm text-emerald-700" role="status">
            Saved
          </span>
        ) : null}
      </div>
    </form>
  );
}
