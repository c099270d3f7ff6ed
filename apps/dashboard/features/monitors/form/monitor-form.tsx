"use client";
// The monitor form: its state, submit and test; each section is a file of its own beside it.
import { originOf } from "@vigil/api-contract";
import { FlaskConical, Save } from "lucide-react";
import Link from "next/link";
import { type FormEvent, startTransition, useActionState, useEffect, useRef, useState } from "react";
import { LiftHint } from "../../../ui/lift-hint";
import { Button, buttonClass, Field, Input, Notice } from "../../../ui/ui";
import { saveMonitorAction, testMonitorAction } from "../actions";
import { AlertingSection } from "./alerting-section";
import { AssertionBuilder } from "./assertions";
import { BasicsSection } from "./basics-section";
import type { Draft, MonitorFormState } from "./draft";
import { isGenericKind, isServerSide } from "./kind-fields";
import { GenericKindSection } from "./kind-section";
import { OtelSection } from "./otel-section";
import { type FormKit, Section, type TextKey, type TextOpts } from "./parts";
import { HeartbeatSchedule, HttpRequest, TcpTarget } from "./request-sections";
import { type LocationOption, ScheduleSection, StateSection } from "./schedule-section";
import { TestResult } from "./test-result";

export type { LocationOption };

export function MonitorForm({
  workspaceId,
  monitorId,
  initial,
  frequencies,
  multiRegion,
  locations,
  channels,
  policies,
  monitors,
  canTest,
  locationsRefused,
}: {
  /** Set when the workspace's limits forbid private locations: the key and who lifts it. */
  locationsRefused?: Record<string, string>;
  workspaceId: number;
  monitorId?: number;
  initial: Draft;
  frequencies: string[];
  multiRegion: boolean;
  locations: LocationOption[];
  channels: { name: string; kind: string; enabled: boolean }[];
  /** The workspace's escalation policies, by name. */
  policies: string[];
  /** The workspace's monitors this one may depend on (`value` as in Draft.dependsOn). */
  monitors: { id: number; value: string; label: string }[];
  canTest: boolean;
}) {
  const [saved, save, saving] = useActionState<MonitorFormState, FormData>(saveMonitorAction, {});
  const [tested, test, testing] = useActionState<MonitorFormState, FormData>(testMonitorAction, {});
  // Without JavaScript the page comes back from a failed save with the posted draft (secrets blanked).
  const [d, setD] = useState<Draft>(saved.draft ?? initial);
  const latest = (tested.at ?? 0) > (saved.at ?? 0) ? tested : saved;
  // Fields changed since the last answer: their old rule no longer describes what they hold.
  const [edited, setEdited] = useState<{ at?: number; names: string[] }>({ names: [] });
  const set = (patch: Partial<Draft>) => {
    setD((x) => ({ ...x, ...patch }));
    setEdited((e) => ({ at: latest.at, names: [...(e.at === latest.at ? e.names : []), ...Object.keys(patch)] }));
  };
  const fields = latest.fields ?? {};
  // The same rule core enforces: "***" (a stored secret left empty) keeps it only for the origin it was stored for.
  const movedFrom = (stored: string, now: string) => {
    const [from, to] = [originOf(stored), originOf(now)];
    return monitorId && from && from !== to ? { from, to: to ?? "no URL" } : null;
  };
  const f = (name: string) => (edited.at === latest.at && edited.names.includes(name) ? undefined : fields[name]);
  // Every field the refusal named has been changed since: its summary no longer applies.
  const named = Object.keys(fields);
  const stale = named.length > 0 && named.every((n) => f(n) === undefined);
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (tested.at) resultRef.current?.scrollIntoView({ block: "nearest" });
  }, [tested.at]);

  /** A labelled text input bound to the draft, its rule shown beside it. */
  const text = (name: TextKey, label: string, o: TextOpts = {}) => (
    <Field label={label} name={name} error={f(name)} hint={o.hint}>
      <Input
        id={name}
        name={name}
        type={o.type}
        inputMode={o.inputMode}
        value={d[name]}
        onChange={(e) => set({ [name]: e.target.value })}
        placeholder={o.placeholder}
        className={o.mono ? "font-mono" : undefined}
        invalid={!!f(name)}
        aria-describedby={f(name) ? `${name}-error` : undefined}
      />
    </Field>
  );

  const kit: FormKit = { d, set, f, text, workspaceId, monitorId };
  const http = d.kind === "http";
  const serverSide = isServerSide(d.kind);

  // With JavaScript the actions run from here, so React does not reset the form after a refused save.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const fd = new FormData(e.currentTarget, submitter);
    startTransition(() => (submitter?.dataset.intent === "test" ? test(fd) : save(fd)));
  };

  return (
    <form action={save} onSubmit={submit} className="grid gap-5" noValidate>
      <input type="hidden" name="workspaceId" value={workspaceId} />
      {monitorId ? <input type="hidden" name="id" value={monitorId} /> : null}
      {d.remindPerChannel ? <input type="hidden" name="remindPerChannel" value="1" /> : null}

      <BasicsSection {...kit} />

      {d.kind === "heartbeat" ? (
        <HeartbeatSchedule {...kit} />
      ) : isGenericKind(d.kind) ? (
        <GenericKindSection kind={d.kind} draft={d} set={set} error={f} />
      ) : http ? (
        <HttpRequest {...kit} reset={setD} movedFrom={movedFrom} initial={initial} />
      ) : (
        <TcpTarget {...kit} />
      )}

      {http ? (
        <Section title="Assertions" description="Every assertion must hold for the check to pass.">
          <AssertionBuilder rows={d.assertions} onChange={(assertions) => set({ assertions })} fields={fields} />
        </Section>
      ) : null}

      {serverSide ? (
        <StateSection {...kit} />
      ) : (
        <ScheduleSection
          {...kit}
          frequencies={frequencies}
          multiRegion={multiRegion}
          locations={locations}
          locationsRefused={locationsRefused}
        />
      )}
      <AlertingSection {...kit} channels={channels} policies={policies} monitors={monitors} />

      {serverSide ? null : <OtelSection {...kit} movedFrom={movedFrom} initial={initial} />}

      <div ref={resultRef}>{tested.test && tested.at === latest.at ? <TestResult test={tested.test} /> : null}</div>

      {latest.error && !stale ? (
        <Notice tone="red">
          <span role="alert">{latest.error}</span>
          <LiftHint info={latest.info} />
        </Notice>
      ) : null}

      <div className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 pt-4">
        <Link href={`/w/${workspaceId}/monitors`} className={buttonClass("ghost")}>
          Cancel
        </Link>
        {serverSide ? null : (
          <Button
            variant="secondary"
            formAction={test}
            data-intent="test"
            disabled={testing || saving || !canTest}
            title={canTest ? "Run this definition once on a probe, without saving" : "Test now needs the server's Redis (REDIS_URL)"}
          >
            <FlaskConical className="size-4" aria-hidden />
            {testing ? "Testing…" : "Test now"}
          </Button>
        )}
        <Button disabled={saving || testing || (!serverSide && locations.length === 0)}>
          <Save className="size-4" aria-hidden />
          {saving ? "Saving…" : monitorId ? "Save changes" : "Create monitor"}
        </Button>
      </div>
    </form>
  );
}
