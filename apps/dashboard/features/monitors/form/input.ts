// The monitor form's model as the shared schema's input, and a refused save's way back to the form.
import { type Assertion, type CheckKindName, isSecretHeader, type MonitorInputRaw, REDACTED } from "@vigil/api-contract";
import type { AssertionRow, Draft, HeaderRow } from "./draft";
import { assertionsOf, isGenericKind, kindFields, requestOf } from "./kind-fields";
import { draftFromForm } from "./posted";

const kindSecret = (kind: CheckKindName, name: string) => kindFields(kind).some((f) => f.name === name && f.secret);
const dependencyRef = (v: string): string | number => (/^#\d{1,15}$/.test(v) ? Number(v.slice(1)) : v);

/** Digits become a number; anything else is left for the schema to name. */
const num = (s: string): number | string | undefined => {
  const t = s.trim();
  if (t === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};
/** Durations as typed ("45s", "800ms"); bare digits are milliseconds. */
const duration = (s: string) => num(s);

/** A JSON body path target: JSON literals (numbers, true, false, null, "quoted") as such, other text as a string. */
function jsonTarget(s: string): unknown {
  const t = s.trim();
  if (/^(-?\d+(\.\d+)?|true|false|null|".*")$/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      return s;
    }
  }
  return s;
}

function headerMap(list: HeaderRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const name = h.name.trim();
    if (name === "" && h.value === "") continue;
    // An empty value for a stored secret keeps it: the server swaps "***" for what it has.
    out[name] = h.stored && h.value === "" ? REDACTED : h.value;
  }
  return out;
}

function assertionInput(a: AssertionRow): Record<string, unknown> {
  const base = { kind: a.kind, compare: a.compare };
  switch (a.kind) {
    case "statusCode":
    case "latency":
      return { ...base, target: num(a.target) };
    case "textBody":
      return { ...base, target: a.target };
    case "header":
      return { ...base, key: a.key.trim(), target: a.target };
    case "jsonBody":
      return { ...base, path: a.path.trim(), target: jsonTarget(a.target) };
    case "certificate":
      return { ...base, property: a.property, severity: a.severity, target: a.property === "issuer" ? a.target : jsonTarget(a.target) };
  }
}

/** The draft as the shared schema's input (not yet validated: the schema says what is wrong). */
export function inputOf(d: Draft): MonitorInputRaw {
  const common = {
    name: d.name.trim() || undefined,
    key: d.key.trim() || undefined,
    description: d.description,
    tags: d.tags.split(/[\s,]+/).filter(Boolean),
    frequency: d.frequency as "1m",
    regions: d.regions as ["iad"],
    retry: num(d.retry) as number | undefined,
    failureThreshold: num(d.failureThreshold) as number | undefined,
    successThreshold: num(d.successThreshold) as number | undefined,
    timeout: duration(d.timeout),
    degradedAfter: duration(d.degradedAfter),
    active: d.active,
    channels: d.channels,
    // Empty clears the reminders, unless per-channel ones are stored: the form cannot show those, so it keeps them.
    remindEvery: d.remindEvery.trim() || (d.remindPerChannel ? undefined : null),
    escalationPolicy: d.escalationPolicy || null,
    dependsOn: d.dependsOn.map(dependencyRef),
    openTelemetry: d.otelEndpoint.trim() ? { endpoint: d.otelEndpoint.trim(), headers: headerMap(d.otelHeaders) } : undefined,
  };
  if (isGenericKind(d.kind)) {
    const kind = d.kind;
    return {
      ...common,
      kind,
      request: requestOf(kind, d.fields, d.fieldsStored),
      ...(d.assertionsText.trim() !== "" && { assertions: assertionsOf(d.assertionsText) }),
    } as MonitorInputRaw;
  }
  if (d.kind === "heartbeat") {
    // No frequency, regions, retries or timeouts: the job's pings are the check.
    const { frequency: _f, regions: _r, retry: _t, timeout: _o, degradedAfter: _d, ...rest } = common;
    // Every schedule key is given (undefined for the other mode): an edit merges `request` into the stored one.
    const schedule =
      d.hbMode === "cron"
        ? { period: undefined, cron: d.cron.trim() || undefined, timezone: d.timezone.trim() || undefined }
        : { period: duration(d.period), cron: undefined, timezone: undefined };
    return { ...rest, kind: "heartbeat", request: { ...schedule, grace: duration(d.grace) } } as MonitorInputRaw;
  }
  if (d.kind === "tcp") {
    return { ...common, kind: "tcp", request: { host: d.host.trim(), port: num(d.port) as number } };
  }
  const headers = headerMap(d.headers);
  const marked = d.headers.filter((h) => h.secret && h.name.trim() && !isSecretHeader(h.name.trim())).map((h) => h.name.trim());
  return {
    ...common,
    kind: "http",
    request: {
      url: d.url.trim(),
      method: d.method,
      headers,
      // Always sent, so unmarking the last one on edit clears the stored list.
      secretHeaders: marked,
      body: d.body === "" ? undefined : d.body,
      followRedirects: d.followRedirects,
    },
    assertions: d.assertions.map(assertionInput) as Assertion[],
  };
}

/** The draft sent back after a failed save, with every secret value blanked (never echoed). */
export function withoutSecrets(d: Draft): Draft {
  const strip = (list: HeaderRow[], always: boolean) =>
    list.map((h) => (always || h.secret || isSecretHeader(h.name) ? { ...h, value: "" } : h));
  const fields = Object.fromEntries(Object.entries(d.fields).map(([k, v]) => [k, isGenericKind(d.kind) && kindSecret(d.kind, k) ? "" : v]));
  return { ...d, fields, headers: strip(d.headers, false), otelHeaders: strip(d.otelHeaders, true) };
}

/** Where a schema issue's path shows in the form: `request.url` → `url`, `assertions.1.target` → `assertion.1.target`. */
export function fieldOf(path: string): string {
  const p = path.replace(/^monitors\.\d+\./, "");
  if (p.startsWith("request.headers") || p.startsWith("request.secretHeaders")) return "headers";
  if (p.startsWith("openTelemetry.headers")) return "otelHeaders";
  if (p === "openTelemetry.endpoint" || p === "openTelemetry") return "otelEndpoint";
  if (p.startsWith("request.")) return p.slice("request.".length).split(".")[0]!;
  if (p.startsWith("assertions") && !/^assertions\.\d+/.test(p)) return "assertionsText";
  const a = /^assertions\.(\d+)(?:\.(\w+))?/.exec(p);
  if (a) return a[2] ? `assertion.${a[1]}.${a[2]}` : `assertion.${a[1]}`;
  if (p.startsWith("regions")) return "regions";
  if (p.startsWith("channels")) return "channels";
  return p.split(".")[0] || "form";
}

/** One save or test as posted: the form's model and the schema's input made from it, once. */
export interface PostedMonitor {
  draft: Draft;
  input: MonitorInputRaw;
}

export function postedMonitor(form: FormData): PostedMonitor {
  const draft = draftFromForm(form);
  return { draft, input: inputOf(draft) };
}

/** The same post with the entry key it will be saved under. */
export const withKey = (p: PostedMonitor, key: string): PostedMonitor => ({
  draft: { ...p.draft, key },
  input: { ...(p.input as Record<string, unknown>), key } as MonitorInputRaw,
});
