"use client";
import { isSecretHeader, originOf } from "@vigil/api-contract";
import { FlaskConical, Plus, Save, Sparkles, Trash2 } from "lucide-react";
import Link from "next/link";
import { type FormEvent, type ReactNode, startTransition, useActionState, useEffect, useRef, useState } from "react";
import { LiftHint } from "../../../ui/lift-hint";
import { Button, buttonClass, Card, CardHeader, cx, Field, Input, Notice, Select } from "../../../ui/ui";
import { saveMonitorAction, testMonitorAction } from "../actions";
import {
  ASSERTION_KINDS,
  type AssertionKind,
  type AssertionRow,
  CERTIFICATE_COMPARATORS,
  CERTIFICATE_PROPERTIES,
  COMPARATOR_LABEL,
  COMPARATORS_OF,
  type Draft,
  emptyAssertion,
  emptyHeader,
  type HeaderRow,
  jsonRpcPreset,
  METHODS,
  type MonitorFormState,
} from "./draft";
import { ALL_KINDS, isGenericKind, isServerSide } from "./kind-fields";
import { GenericKindSection, KIND_LABELS } from "./kind-section";
import { TestResult } from "./test-result";

export interface LocationOption {
  region: string;
  label: string;
  /** Names of the private locations serving it (empty: no probe runs it). */
  locations: { name: string; online: boolean }[];
}

const textarea = "w-full rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-xs placeholder:text-zinc-400";

function RowError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-xs text-red-600" role="alert">
      {error}
    </p>
  );
}

/** Name / value rows; secret values are write-only (a stored one shows as set, never its value). */
function HeaderRows({
  prefix,
  label,
  rows,
  onChange,
  allSecret,
  error,
  add,
  moved,
}: {
  /** The destination's origin changed since it was stored: stored secrets are not sent there, so they must be typed again. */
  moved?: { from: string; to: string } | null;
  prefix: string;
  label: string;
  /** The add button's text. */
  add: string;
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  allSecret?: boolean;
  error?: string;
}) {
  const set = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">{label}</legend>
      {rows.length === 0 ? <p className="text-xs text-zinc-500">None.</p> : null}
      {moved && rows.some((h) => h.stored) ? (
        <p className="text-xs text-amber-700" data-testid={`${prefix}-moved`}>
          The URL now goes to {moved.to} (was {moved.from}): stored secrets are only sent to the origin they were entered for. Enter them
          again, or they are refused.
        </p>
      ) : null}
      {rows.map((h, i) => {
        const alwaysSecret = allSecret || (h.name.trim() !== "" && isSecretHeader(h.name.trim()));
        const secret = alwaysSecret || h.secret;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
          <div key={i} className="grid gap-2 sm:grid-cols-[12rem_1fr_auto_auto] sm:items-center">
            <Input
              name={`${prefix}.${i}.name`}
              aria-label={`${label} ${i + 1} name`}
              placeholder="Name"
              value={h.name}
              onChange={(e) => set(i, { name: e.target.value })}
              className="font-mono"
            />
            <Input
              name={`${prefix}.${i}.value`}
              aria-label={`${label} ${i + 1} value`}
              type={secret ? "password" : "text"}
              autoComplete="off"
              placeholder={h.stored ? (moved ? `enter again for ${moved.to}` : "•••••• set — leave empty to keep") : "Value"}
              value={h.value}
              onChange={(e) => set(i, { value: e.target.value })}
              className="font-mono"
            />
            {h.stored ? <input type="hidden" name={`${prefix}.${i}.stored`} value="1" /> : null}
            {allSecret ? (
              <span className="text-xs text-zinc-500">secret</span>
            ) : (
              <label
                className="flex items-center gap-1.5 text-xs text-zinc-600"
                title={alwaysSecret ? "Always secret by its name" : undefined}
              >
                <input
                  type="checkbox"
                  name={`${prefix}.${i}.secret`}
                  checked={secret}
                  disabled={alwaysSecret}
                  onChange={(e) => set(i, { secret: e.target.checked })}
                />
                Secret
              </label>
            )}
            <button
              type="button"
              className={buttonClass("ghost", "h-8 px-2")}
              aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </div>
        );
      })}
      <RowError id={`${prefix}-error`} error={error} />
      <div>
        <button type="button" className={buttonClass("secondary", "h-8 text-xs")} onClick={() => onChange([...rows, emptyHeader()])}>
          <Plus className="size-3.5" aria-hidden /> {add}
        </button>
      </div>
    </fieldset>
  );
}

function AssertionBuilder({
  rows,
  onChange,
  fields,
}: {
  rows: AssertionRow[];
  onChange: (rows: AssertionRow[]) => void;
  fields: Record<string, string>;
}) {
  const added = useRef<number | null>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Keyboard users land on the row they just added.
    if (added.current === null) return;
    list.current?.querySelector<HTMLSelectElement>(`[name="assertion.${added.current}.kind"]`)?.focus();
    added.current = null;
  });
  const set = (i: number, patch: Partial<AssertionRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="grid gap-3" ref={list}>
      {rows.length === 0 ? <p className="text-sm text-zinc-500">No assertions: any 2xx status passes.</p> : null}
      {rows.map((a, i) => {
        const err = (f: string) => fields[`assertion.${i}.${f}`];
        const rowError = err("target") ?? err("compare") ?? err("key") ?? err("path") ?? fields[`assertion.${i}`];
        const ops = a.kind === "certificate" ? CERTIFICATE_COMPARATORS[a.property]! : COMPARATORS_OF[a.kind];
        const noTarget = a.compare === "empty" || a.compare === "not_empty";
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
            key={i}
            data-testid="assertion-row"
            className={cx("grid gap-2 rounded-lg border bg-zinc-50/60 p-2.5", rowError ? "border-red-300" : "border-zinc-200")}
          >
            <div
              className={cx(
                "grid items-center gap-2",
                a.kind === "certificate"
                  ? "sm:grid-cols-[10rem_10rem_8rem_minmax(0,1fr)_8rem_auto]"
                  : a.kind === "header" || a.kind === "jsonBody"
                    ? "sm:grid-cols-[10rem_10rem_10rem_minmax(0,1fr)_auto]"
                    : "sm:grid-cols-[10rem_10rem_minmax(0,1fr)_auto]",
              )}
            >
              <Select
                name={`assertion.${i}.kind`}
                aria-label={`Assertion ${i + 1} kind`}
                value={a.kind}
                onChange={(e) => {
                  const kind = e.target.value as AssertionKind;
                  set(i, { ...emptyAssertion(kind), compare: COMPARATORS_OF[kind].includes(a.compare) ? a.compare : "eq" });
                }}
              >
                {ASSERTION_KINDS.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </Select>
              {a.kind === "header" ? (
                <Input
                  name={`assertion.${i}.key`}
                  aria-label={`Assertion ${i + 1} header name`}
                  placeholder="content-type"
                  value={a.key}
                  invalid={!!err("key")}
                  onChange={(e) => set(i, { key: e.target.value })}
                  className="font-mono"
                />
              ) : null}
              {a.kind === "certificate" ? (
                <Select
                  name={`assertion.${i}.property`}
                  aria-label={`Assertion ${i + 1} certificate property`}
                  value={a.property}
                  invalid={!!err("property")}
                  onChange={(e) => {
                    const property = e.target.value;
                    set(i, { property, compare: CERTIFICATE_COMPARATORS[property]![0]!, target: property === "valid" ? "true" : "" });
                  }}
                >
                  {CERTIFICATE_PROPERTIES.map(([p, label]) => (
                    <option key={p} value={p}>
                      {label}
                    </option>
                  ))}
                </Select>
              ) : null}
              {a.kind === "jsonBody" ? (
                <Input
                  name={`assertion.${i}.path`}
                  aria-label={`Assertion ${i + 1} JSON path`}
                  placeholder="$.status"
                  value={a.path}
                  invalid={!!err("path")}
                  onChange={(e) => set(i, { path: e.target.value })}
                  className="font-mono"
                />
              ) : null}
              <Select
                name={`assertion.${i}.compare`}
                aria-label={`Assertion ${i + 1} comparator`}
                value={a.compare}
                invalid={!!err("compare")}
                onChange={(e) => set(i, { compare: e.target.value })}
              >
                {ops.map((op) => (
                  <option key={op} value={op}>
                    {COMPARATOR_LABEL[op]}
                  </option>
                ))}
              </Select>
              {noTarget ? (
                <input type="hidden" name={`assertion.${i}.target`} value="" />
              ) : (
                <Input
                  name={`assertion.${i}.target`}
                  aria-label={`Assertion ${i + 1} expected value`}
                  placeholder={
                    a.kind === "statusCode"
                      ? "200"
                      : a.kind === "latency"
                        ? "ms, e.g. 800"
                        : a.kind === "jsonBody"
                          ? 'ok, 42, true, null or "quoted"'
                          : a.kind === "certificate"
                            ? a.property === "expiresIn"
                              ? "days, e.g. 21"
                              : a.property === "valid"
                                ? "true or false"
                                : "text, e.g. Let's Encrypt"
                            : "text"
                  }
                  value={a.target}
                  invalid={!!err("target")}
                  inputMode={a.kind === "statusCode" || a.kind === "latency" ? "numeric" : undefined}
                  onChange={(e) => set(i, { target: e.target.value })}
                  className="font-mono"
                />
              )}
              {a.kind === "certificate" ? (
                <Select
                  name={`assertion.${i}.severity`}
                  aria-label={`Assertion ${i + 1} when it fails`}
                  value={a.severity}
                  onChange={(e) => set(i, { severity: e.target.value })}
                >
                  <option value="error">error</option>
                  <option value="degraded">degraded</option>
                </Select>
              ) : null}
              <button
                type="button"
                className={buttonClass("ghost", "h-8 justify-self-end px-2")}
                aria-label={`Remove assertion ${i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            </div>
            <RowError id={`assertion-${i}-error`} error={rowError ? `Assertion ${i + 1}: ${rowError}` : undefined} />
          </div>
        );
      })}
      {fields.assertions ? <RowError id="assertions-error" error={`Assertions ${fields.assertions}`} /> : null}
      <div>
        <button
          type="button"
          className={buttonClass("secondary", "h-8 text-xs")}
          onClick={() => {
            added.current = rows.length;
            onChange([...rows, emptyAssertion("statusCode")]);
          }}
        >
          <Plus className="size-3.5" aria-hidden /> Add assertion
        </button>
      </div>
    </div>
  );
}

type TextKey =
  | "period"
  | "cron"
  | "timezone"
  | "grace"
  | "name"
  | "key"
  | "description"
  | "tags"
  | "url"
  | "host"
  | "port"
  | "timeout"
  | "degradedAfter"
  | "retry"
  | "failureThreshold"
  | "successThreshold"
  | "remindEvery"
  | "otelEndpoint";
interface TextOpts {
  hint?: string;
  placeholder?: string;
  mono?: boolean;
  type?: string;
  inputMode?: "numeric";
}

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="grid gap-4 px-5 py-4">{children}</div>
    </Card>
  );
}

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

  const http = d.kind === "http";
  const dependencies = monitors.filter((o) => o.id !== monitorId);
  const serverSide = isServerSide(d.kind);
  const freqOptions = frequencies.includes(d.frequency) || !d.frequency ? frequencies : [d.frequency, ...frequencies];
  const regionOptions = locations;
  const toggleRegion = (r: string, on: boolean) =>
    set({ regions: multiRegion ? (on ? [...d.regions, r] : d.regions.filter((x) => x !== r)) : on ? [r] : [] });

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

      <Section title="What to check">
        <fieldset className="grid gap-1.5">
          <legend className="mb-1.5 text-sm font-medium text-zinc-800">Kind</legend>
          <div className="inline-flex w-fit flex-wrap rounded-lg border border-zinc-300 bg-zinc-50 p-0.5" role="radiogroup">
            {ALL_KINDS.map((k) => (
              <label
                key={k}
                className={cx(
                  "cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
                  d.kind === k ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500",
                )}
              >
                <input type="radio" name="kind" value={k} checked={d.kind === k} onChange={() => set({ kind: k })} className="sr-only" />
                {KIND_LABELS[k] ?? k}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("name", "Name", { hint: "Shown in the list, alerts and status pages.", placeholder: "API health" })}
          {text("key", "Key", {
            hint: monitorId
              ? "The YAML entry key: apply matches monitors by it."
              : "The YAML entry key; left empty, it is made from the name.",
            placeholder: "api-health",
            mono: true,
          })}
        </div>
        {text("description", "Description")}
        {text("tags", "Tags", {
          hint: "Separated by commas or spaces; the monitor list filters by them.",
          placeholder: "prod, team:payments",
          mono: true,
        })}
      </Section>

      {d.kind === "heartbeat" ? (
        <Section
          title="Schedule"
          description="Your job calls its ping URL (shown once the monitor is saved); silence past the grace time is the failure."
        >
          <fieldset className="grid gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">Expect a ping</legend>
            <div className="inline-flex w-fit rounded-lg border border-zinc-300 bg-zinc-50 p-0.5" role="radiogroup">
              {(
                [
                  ["period", "Every period"],
                  ["cron", "On a cron schedule"],
                ] as const
              ).map(([mode, label]) => (
                <label
                  key={mode}
                  className={cx(
                    "cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
                    d.hbMode === mode ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500",
                  )}
                >
                  <input
                    type="radio"
                    name="hbMode"
                    value={mode}
                    checked={d.hbMode === mode}
                    onChange={() => set({ hbMode: mode })}
                    className="sr-only"
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          {d.hbMode === "period" ? (
            <div className="grid gap-4 sm:grid-cols-2">
              {text("period", "Period", { hint: "How often the job runs: 30s, 5m, 1h, 1d (1s to 31d).", placeholder: "1h" })}
              {text("grace", "Grace", { hint: "How late a ping may be before the monitor is down.", placeholder: "5m" })}
            </div>
          ) : (
            <div className="grid gap-4 sm:grid-cols-3">
              {text("cron", "Cron", { hint: "5 fields: minute hour day month weekday.", placeholder: "30 2 * * *", mono: true })}
              {text("timezone", "Time zone", { hint: "IANA name, e.g. Europe/Berlin or UTC.", placeholder: "UTC", mono: true })}
              {text("grace", "Grace", { hint: "How late a ping may be before the monitor is down.", placeholder: "15m" })}
            </div>
          )}
        </Section>
      ) : isGenericKind(d.kind) ? (
        <GenericKindSection kind={d.kind} draft={d} set={set} error={f} />
      ) : http ? (
        <Section title="Request" description="Sent from each private location at every check.">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-zinc-500">Preset:</span>
            <button type="button" className={buttonClass("secondary", "h-8 text-xs")} onClick={() => setD((x) => jsonRpcPreset(x))}>
              <Sparkles className="size-3.5" aria-hidden /> JSON-RPC 2.0 ping
            </button>
          </div>
          <div className="grid gap-4 sm:grid-cols-[9rem_1fr]">
            <Field label="Method" name="method" error={f("method")}>
              <Select id="method" name="method" value={d.method} onChange={(e) => set({ method: e.target.value })} invalid={!!f("method")}>
                {METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </Select>
            </Field>
            {text("url", "URL", { type: "url", placeholder: "https://api.example.com/health", mono: true })}
          </div>
          <HeaderRows
            prefix="header"
            label="Headers"
            add="Add header"
            rows={d.headers}
            onChange={(headers) => set({ headers })}
            moved={movedFrom(initial.url, d.url)}
            error={f("headers")}
          />
          <Field label="Body" name="body" error={f("body")} hint="Sent as is (up to 64 KiB).">
            <textarea
              id="body"
              name="body"
              rows={3}
              value={d.body}
              onChange={(e) => set({ body: e.target.value })}
              className={cx(textarea, f("body") ? "border-red-500" : "border-zinc-300")}
            />
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="followRedirects"
              checked={d.followRedirects}
              onChange={(e) => set({ followRedirects: e.target.checked })}
            />
            Follow redirects
          </label>
        </Section>
      ) : (
        <Section title="Target" description="A TCP connection is opened; the check passes when it connects.">
          <div className="grid gap-4 sm:grid-cols-[1fr_9rem]">
            {text("host", "Host", { placeholder: "db.internal", mono: true })}
            {text("port", "Port", { placeholder: "5432", inputMode: "numeric" })}
          </div>
        </Section>
      )}

      {http ? (
        <Section title="Assertions" description="Every assertion must hold for the check to pass.">
          <AssertionBuilder rows={d.assertions} onChange={(assertions) => set({ assertions })} fields={fields} />
        </Section>
      ) : null}

      {serverSide ? (
        <Section title="State">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="active" checked={d.active} onChange={(e) => set({ active: e.target.checked })} />
            Active (uncheck to pause: pings are refused and no alert is sent)
          </label>
        </Section>
      ) : (
        <Section title="Schedule and locations">
          <div className="grid gap-4 sm:grid-cols-4">
            <Field label="Frequency" name="frequency" error={f("frequency")} hint="The choices your workspace's limits allow.">
              <Select
                id="frequency"
                name="frequency"
                value={d.frequency}
                onChange={(e) => set({ frequency: e.target.value })}
                invalid={!!f("frequency")}
              >
                {freqOptions.map((x) => (
                  <option key={x} value={x}>
                    every {x}
                  </option>
                ))}
              </Select>
            </Field>
            {text("timeout", "Timeout", { hint: "e.g. 45s, 800ms (max 120s)" })}
            {text("degradedAfter", "Degraded after", { hint: "Slower than this is degraded.", placeholder: "e.g. 2s" })}
            {text("retry", "Retries", { hint: "Before a check counts as failed (0-10).", inputMode: "numeric" })}
            {text("failureThreshold", "Failures before alert", {
              hint: "Failed checks in a row before the monitor is down (1-100).",
              inputMode: "numeric",
            })}
            {text("successThreshold", "Successes before recovery", {
              hint: "Good checks in a row before it is back up (1-100).",
              inputMode: "numeric",
            })}
          </div>
          <fieldset className="grid min-w-0 gap-2">
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">
              Locations{" "}
              <span className="font-normal text-zinc-500">
                {multiRegion ? "(one or more)" : "(one: your limits do not include multi-region)"}
              </span>
            </legend>
            {regionOptions.length === 0 && locationsRefused ? (
              <div data-testid="no-locations">
                <Notice>
                  Checks run on private locations, and this workspace's limits do not allow any yet, so a monitor cannot be saved here.
                  <LiftHint info={locationsRefused} />
                </Notice>
              </div>
            ) : regionOptions.length === 0 ? (
              <div data-testid="no-locations">
                <Notice>
                  This workspace has no private location yet, so nothing would run this monitor and it cannot be saved.{" "}
                  <Link className="underline" href={`/w/${workspaceId}/locations`}>
                    Create one
                  </Link>{" "}
                  and start its probe, then come back.
                </Notice>
              </div>
            ) : (
              <div className="grid gap-2 sm:grid-cols-2">
                {regionOptions.map((o) => (
                  <label
                    key={o.region}
                    className={cx(
                      "flex cursor-pointer items-start gap-2.5 rounded-lg border px-3 py-2 text-sm has-checked:border-zinc-900 has-checked:bg-zinc-50",
                      f("regions") ? "border-red-300" : "border-zinc-200",
                    )}
                  >
                    <input
                      type={multiRegion ? "checkbox" : "radio"}
                      name="regions"
                      value={o.region}
                      checked={d.regions.includes(o.region)}
                      onChange={(e) => toggleRegion(o.region, e.target.checked)}
                      className="mt-0.5"
                    />
                    <span>
                      <span className="font-medium">{o.label}</span>
                      <span className="block text-xs text-zinc-500">
                        {o.locations.length === 0
                          ? "no probe runs here"
                          : o.locations.map((l) => `${l.name} (${l.online ? "online" : "offline"})`).join(", ")}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            )}
            <RowError id="regions-error" error={f("regions") ? `Locations ${f("regions")}` : undefined} />
          </fieldset>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="active" checked={d.active} onChange={(e) => set({ active: e.target.checked })} />
            Active (uncheck to pause checks)
          </label>
        </Section>
      )}
      <Section
        title="Alerts"
        description="Channels notified when the monitor goes down or recovers, reminders, escalation and dependencies."
      >
        {channels.length === 0 ? (
          <p className="text-sm text-zinc-500">
            No notification channels yet.{" "}
            <Link className="underline" href={`/w/${workspaceId}/notifications`}>
              Create one
            </Link>{" "}
            to be alerted.
          </p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {channels.map((c) => (
              <label
                key={c.name}
                className="flex cursor-pointer items-center gap-2 rounded-full border border-zinc-200 px-3 py-1 text-sm has-checked:border-zinc-900 has-checked:bg-zinc-50"
              >
                <input
                  type="checkbox"
                  name="channels"
                  value={c.name}
                  checked={d.channels.includes(c.name)}
                  onChange={(e) => set({ channels: e.target.checked ? [...d.channels, c.name] : d.channels.filter((x) => x !== c.name) })}
                />
                {c.name}
                <span className="text-xs text-zinc-500">
                  {c.kind}
                  {c.enabled ? "" : ", disabled"}
                </span>
              </label>
            ))}
          </div>
        )}
        <RowError id="channels-error" error={f("channels") ? `Channels ${f("channels")}` : undefined} />
        <div className="grid gap-4 sm:grid-cols-2">
          {text("remindEvery", "Remind every", {
            hint: d.remindPerChannel
              ? "Reminders per channel are set (YAML or API); empty keeps them, a value here replaces them."
              : "While down and not acknowledged, e.g. 30m or 2h (at least 5m). Empty: no reminders.",
            placeholder: "e.g. 30m",
            mono: true,
          })}
          <Field label="Escalation policy" name="escalationPolicy" error={f("escalationPolicy")}>
            <Select
              id="escalationPolicy"
              name="escalationPolicy"
              value={d.escalationPolicy}
              onChange={(e) => set({ escalationPolicy: e.target.value })}
              invalid={!!f("escalationPolicy")}
              aria-describedby={f("escalationPolicy") ? "escalationPolicy-error" : "escalationPolicy-hint"}
            >
              <option value="">None: only the channels above</option>
              {(policies.includes(d.escalationPolicy) || !d.escalationPolicy ? policies : [d.escalationPolicy, ...policies]).map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </Select>
            {f("escalationPolicy") ? null : (
              <p id="escalationPolicy-hint" className="text-xs text-zinc-500">
                Who else hears while nobody acknowledges.{" "}
                <Link className="underline" href={`/w/${workspaceId}/escalation`}>
                  Escalation policies
                </Link>
              </p>
            )}
          </Field>
        </div>
        <fieldset className="grid min-w-0 gap-2" aria-describedby="dependsOn-hint">
          <legend className="mb-1.5 text-sm font-medium text-zinc-800">Depends on</legend>
          <p id="dependsOn-hint" className="-mt-1 text-xs text-zinc-500">
            While one of these is down, this monitor's alerts are held and logged as suppressed.
          </p>
          {dependencies.length === 0 ? (
            <p className="text-sm text-zinc-500">No other monitors in this workspace yet.</p>
          ) : (
            <div className="flex max-h-48 flex-wrap gap-2 overflow-y-auto">
              {dependencies.map((o) => (
                <label
                  key={o.value}
                  className={cx(
                    "flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1 text-sm has-checked:border-zinc-900 has-checked:bg-zinc-50 has-focus-visible:ring-2 has-focus-visible:ring-zinc-400",
                    f("dependsOn") ? "border-red-300" : "border-zinc-200",
                  )}
                >
                  <input
                    type="checkbox"
                    name="dependsOn"
                    value={o.value}
                    checked={d.dependsOn.includes(o.value)}
                    onChange={(e) =>
                      set({ dependsOn: e.target.checked ? [...d.dependsOn, o.value] : d.dependsOn.filter((x) => x !== o.value) })
                    }
                  />
                  {o.label}
                </label>
              ))}
            </div>
          )}
          <RowError id="dependsOn-error" error={f("dependsOn") ? `Depends on ${f("dependsOn")}` : undefined} />
        </fieldset>
      </Section>

      {serverSide ? null : (
        <Section title="OpenTelemetry" description="Optional: each check's metrics are also sent to your OTLP/HTTP collector.">
          {text("otelEndpoint", "OTLP endpoint", { hint: "http:// or https:// only, e.g. http://otel:4318/v1/metrics", mono: true })}
          <HeaderRows
            prefix="otelHeader"
            label="OTLP headers"
            add="Add OTLP header"
            rows={d.otelHeaders}
            onChange={(otelHeaders) => set({ otelHeaders })}
            moved={movedFrom(initial.otelEndpoint, d.otelEndpoint)}
            allSecret
            error={f("otelHeaders")}
          />
        </Section>
      )}

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
        <Button disabled={saving || testing || (!serverSide && regionOptions.length === 0)}>
          <Save className="size-4" aria-hidden />
          {saving ? "Saving…" : monitorId ? "Save changes" : "Create monitor"}
        </Button>
      </div>
    </form>
  );
}
