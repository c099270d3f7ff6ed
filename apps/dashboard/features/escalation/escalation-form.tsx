"use client";
import { ArrowDown, ArrowUp, Plus, Save, Trash2 } from "lucide-react";
import Link from "next/link";
import { type FormEvent, startTransition, useActionState, useEffect, useRef, useState } from "react";
import { ChannelPicker, pillClass } from "../../ui/channel-picker";
import { Button, buttonClass, cx, Field, Input, Notice } from "../../ui/ui";
import { savePolicyAction } from "../alerts/actions";
import { emptyStep, type PolicyDraft, type PolicyFormState, type StepRow } from "./escalation-model";

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="text-sm text-red-600" role="alert">
      {error}
    </p>
  ) : null;
}

/** Name, ordered steps (minutes unacknowledged → channels) and the repeat of the last step. */
export function EscalationPolicyForm({
  workspaceId,
  policyId,
  initial,
  channels,
}: {
  workspaceId: number;
  policyId?: number;
  initial: PolicyDraft;
  channels: { name: string; kind: string; enabled: boolean }[];
}) {
  const [state, save, saving] = useActionState<PolicyFormState, FormData>(savePolicyAction, {});
  const [d, setDraft] = useState<PolicyDraft>(state.draft ?? initial);
  // Fields changed since the last answer: their old rule no longer describes what they hold.
  const [edited, setEdited] = useState<{ at?: number; names: string[] }>({ names: [] });
  const touch = (...names: string[]) => setEdited((e) => ({ at: state.at, names: [...(e.at === state.at ? e.names : []), ...names] }));
  const setD = (next: PolicyDraft) => {
    setDraft(next);
    touch(...(["name", "repeatEvery"] as const).filter((k) => next[k] !== d[k]));
  };
  const f = Object.fromEntries(Object.entries(state.fields ?? {}).filter(([k]) => !(edited.at === state.at && edited.names.includes(k))));
  const added = useRef<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // Keyboard users land on the step they just added.
    if (added.current === null) return;
    list.current?.querySelector<HTMLInputElement>(`[name="step.${added.current}.afterMinutes"]`)?.focus();
    added.current = null;
  });
  const setStep = (i: number, patch: Partial<StepRow>) => {
    setDraft((x) => ({ ...x, steps: x.steps.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));
    touch(...Object.keys(patch).map((k) => `step.${i}.${k}`));
  };
  // Steps moved or removed: the rules named by position no longer point at the same step.
  const touchSteps = () => touch(...Object.keys(state.fields ?? {}).filter((k) => k.startsWith("step")));
  const move = (i: number, by: -1 | 1) => {
    setDraft((x) => {
      const steps = [...x.steps];
      [steps[i], steps[i + by]] = [steps[i + by]!, steps[i]!];
      return { ...x, steps };
    });
    touchSteps();
  };
  // With JavaScript the action runs from here, so React does not reset the form after a refused save.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    startTransition(() => save(fd));
  };
  return (
    <form action={save} onSubmit={submit} className="grid gap-5 px-5 py-4" noValidate data-testid="policy-form">
      <input type="hidden" name="workspaceId" value={workspaceId} />
      {policyId ? <input type="hidden" name="id" value={policyId} /> : null}
      <div className="max-w-md">
        <Field label="Name" name="name" error={f.name} hint="Monitors name it in YAML and the API: escalationPolicy: <name>.">
          <Input
            id="name"
            name="name"
            value={d.name}
            onChange={(e) => setD({ ...d, name: e.target.value })}
            placeholder="on-call"
            invalid={!!f.name}
            aria-describedby={f.name ? "name-error" : undefined}
          />
        </Field>
      </div>

      <fieldset className="grid gap-3">
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Steps</legend>
        <p className="-mt-1 text-xs text-zinc-500">
          Each step notifies its channels once the alert has stayed unacknowledged that many minutes. 0 is with the first alert.
        </p>
        {channels.length === 0 ? (
          <Notice>
            A step needs a channel to notify, and this workspace has none yet.{" "}
            <Link className="underline" href={`/w/${workspaceId}/notifications/new`}>
              Create a channel
            </Link>{" "}
            first.
          </Notice>
        ) : null}
        <ol className="grid gap-3" ref={list}>
          {d.steps.map((s, i) => {
            const minutesError = f[`step.${i}.afterMinutes`];
            const channelsError = f[`step.${i}.channels`];
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their position
                key={i}
                data-testid="policy-step"
                className={cx(
                  "grid gap-3 rounded-lg border bg-zinc-50/60 p-3",
                  minutesError || channelsError ? "border-red-300" : "border-zinc-200",
                )}
              >
                <div className="flex flex-wrap items-end gap-3">
                  <span className="mb-2 inline-flex size-6 items-center justify-center rounded-full bg-zinc-900 text-xs font-semibold text-white">
                    {i + 1}
                  </span>
                  <div className="grid w-48 gap-1.5">
                    <label htmlFor={`step-${i}-minutes`} className="text-sm font-medium text-zinc-800">
                      Step {i + 1}: after (minutes)
                    </label>
                    <Input
                      id={`step-${i}-minutes`}
                      name={`step.${i}.afterMinutes`}
                      inputMode="decimal"
                      value={s.afterMinutes}
                      onChange={(e) => setStep(i, { afterMinutes: e.target.value })}
                      invalid={!!minutesError}
                      aria-describedby={minutesError ? `step-${i}-minutes-error` : undefined}
                    />
                  </div>
                  <div className="ml-auto flex gap-1">
                    <button
                      type="button"
                      className={buttonClass("ghost", "h-8 px-2")}
                      aria-label={`Move step ${i + 1} up`}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      <ArrowUp className="size-4" aria-hidden />
                    </button>
                    <button
                      type="button"
                      className={buttonClass("ghost", "h-8 px-2")}
                      aria-label={`Move step ${i + 1} down`}
                      disabled={i === d.steps.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      <ArrowDown className="size-4" aria-hidden />
                    </button>
                    <button
                      type="button"
                      className={buttonClass("ghost", "h-8 px-2")}
                      aria-label={`Remove step ${i + 1}`}
                      disabled={d.steps.length === 1}
                      onClick={() => {
                        setD({ ...d, steps: d.steps.filter((_, j) => j !== i) });
                        touchSteps();
                      }}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </button>
                  </div>
                </div>
                <FieldError id={`step-${i}-minutes-error`} error={minutesError ? `Step ${i + 1} minutes ${minutesError}` : undefined} />
                <fieldset aria-describedby={channelsError ? `step-${i}-channels-error` : undefined}>
                  <legend className="mb-1.5 text-sm text-zinc-700">Step {i + 1} notifies</legend>
                  <ChannelPicker
                    name={`step.${i}.channels`}
                    channels={channels}
                    selected={s.channels}
                    onChange={(channels) => setStep(i, { channels })}
                    pillClassName={pillClass(
                      "bg-white has-checked:bg-zinc-100 has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
                      channelsError ? "border-red-300" : "border-zinc-200",
                    )}
                  />
                </fieldset>
                <FieldError id={`step-${i}-channels-error`} error={channelsError ? `Step ${i + 1} channels ${channelsError}` : undefined} />
              </li>
            );
          })}
        </ol>
        <FieldError id="steps-error" error={f.steps ? `Steps ${f.steps}` : undefined} />
        <div>
          <button
            type="button"
            className={buttonClass("secondary", "h-8 text-xs")}
            disabled={d.steps.length >= 20}
            onClick={() => {
              added.current = d.steps.length;
              const last = Number(d.steps.at(-1)?.afterMinutes);
              setD({ ...d, steps: [...d.steps, emptyStep(Number.isFinite(last) ? String(last + 15) : "")] });
            }}
          >
            <Plus className="size-3.5" aria-hidden /> Add step
          </button>
        </div>
      </fieldset>

      <div className="grid gap-2">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="repeat" checked={d.repeat} onChange={(e) => setD({ ...d, repeat: e.target.checked })} />
          Repeat the last step until someone acknowledges
        </label>
        {d.repeat ? (
          <div className="ml-6 max-w-48">
            <Field label="Every (minutes)" name="repeatEvery" error={f.repeatEvery}>
              <Input
                id="repeatEvery"
                name="repeatEvery"
                inputMode="decimal"
                value={d.repeatEvery}
                onChange={(e) => setD({ ...d, repeatEvery: e.target.value })}
                invalid={!!f.repeatEvery}
                aria-describedby={f.repeatEvery ? "repeatEvery-error" : undefined}
              />
            </Field>
          </div>
        ) : null}
        <p className="text-xs text-zinc-500">A recovery goes to every channel a step notified.</p>
      </div>

      {state.error ? (
        <Notice tone="red">
          <span role="alert">{state.error}</span>
        </Notice>
      ) : null}

      <div className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 pt-4">
        <Link href={`/w/${workspaceId}/escalation`} className={buttonClass("ghost")}>
          Cancel
        </Link>
        <Button disabled={saving}>
          <Save className="size-4" aria-hidden />
          {saving ? "Saving…" : policyId ? "Save policy" : "Create policy"}
        </Button>
      </div>
    </form>
  );
}
