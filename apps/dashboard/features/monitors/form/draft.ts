// The monitor form's model: what the inputs hold (strings, rows), to and from the shared
// MonitorInput. Pure: the client form and the server actions both use it.
import {
  type Assertion,
  type CheckKindName,
  type CheckResult,
  COMPARATORS,
  isSecretHeader,
  type Monitor,
  type MonitorInputRaw,
  REDACTED,
} from "@vigil/api-contract";
import { ALL_KINDS, assertionsOf, fieldsText, isGenericKind, kindFields, requestOf } from "./kind-fields";

const kindSecret = (kind: CheckKindName, name: string) => kindFields(kind).some((f) => f.name === name && f.secret);

export type AssertionKind = Assertion["kind"];
export const ASSERTION_KINDS: { kind: AssertionKind; label: string }[] = [
  { kind: "statusCode", label: "Status code" },
  { kind: "textBody", label: "Text body" },
  { kind: "header", label: "Header" },
  { kind: "jsonBody", label: "JSON body path" },
  { kind: "latency", label: "Latency (ms)" },
  { kind: "certificate", label: "TLS certificate" },
];
export const CERTIFICATE_PROPERTIES = [
  ["expiresIn", "days until expiry"],
  ["issuer", "issuer"],
  ["valid", "trusted chain"],
] as const;
const NUMBER_OPS = ["eq", "not_eq", "gt", "gte", "lt", "lte"] as const;
const TEXT_OPS = ["eq", "not_eq", "contains", "not_contains", "empty", "not_empty"] as const;
/** Comparators each kind accepts (the api-contract schemas are the rule; this only narrows the menu). */
export const COMPARATORS_OF: Record<AssertionKind, readonly string[]> = {
  statusCode: NUMBER_OPS,
  latency: NUMBER_OPS,
  textBody: TEXT_OPS,
  header: TEXT_OPS,
  jsonBody: COMPARATORS,
  certificate: COMPARATORS,
};
/** The certificate assertion's comparators by property (the schema is the rule). */
export const CERTIFICATE_COMPARATORS: Record<string, readonly string[]> = {
  expiresIn: ["gt", "gte", "lt", "lte"],
  issuer: ["eq", "not_eq", "contains", "not_contains"],
  valid: ["eq"],
};
export const COMPARATOR_LABEL: Record<string, string> = {
  eq: "equals",
  not_eq: "does not equal",
  gt: "greater than",
  gte: "at least",
  lt: "less than",
  lte: "at most",
  contains: "contains",
  not_contains: "does not contain",
  empty: "is empty",
  not_empty: "is not empty",
};
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export interface HeaderRow {
  name: string;
  value: string;
  /** Marked secret by the user (names like Authorization always are). */
  secret: boolean;
  /** A secret value is stored: an empty value keeps it. */
  stored: boolean;
}
export interface AssertionRow {
  kind: AssertionKind;
  compare: string;
  target: string;
  key: string;
  path: string;
  /** certificate: expiresIn, issuer or valid. */
  property: string;
  /** certificate: a failure that only degrades. */
  severity: string;
}
export interface Draft {
  kind: CheckKindName;
  /** The request fields of a kind the form has no section of its own for (see kind-fields), as typed. */
  fields: Record<string, string>;
  /** A stored monitor of that kind: an empty secret field keeps the stored secret. */
  fieldsStored: boolean;
  /** That kind's assertions, as JSON. */
  assertionsText: string;
  name: string;
  key: string;
  description: string;
  /** As typed: separated by commas or spaces. */
  tags: string;
  url: string;
  method: string;
  body: string;
  followRedirects: boolean;
  headers: HeaderRow[];
  assertions: AssertionRow[];
  host: string;
  port: string;
  frequency: string;
  regions: string[];
  timeout: string;
  degradedAfter: string;
  retry: string;
  failureThreshold: string;
  successThreshold: string;
  otelEndpoint: string;
  otelHeaders: HeaderRow[];
  channels: string[];
  /** As typed ("30m", "2h"); empty: no reminders. */
  remindEvery: string;
  /** Reminders per channel are stored (set through YAML or the API): an empty remindEvery keeps them. */
  remindPerChannel: boolean;
  /** An escalation policy's name; empty: none. */
  escalationPolicy: string;
  /** Monitors depended on: a key, or `#<id>` for one without a key. */
  dependsOn: string[];
  active: boolean;
  /** heartbeat: a fixed period, or a cron schedule in a time zone. */
  hbMode: "period" | "cron";
  period: string;
  cron: string;
  timezone: string;
  grace: string;
}

export const emptyHeader = (): HeaderRow => ({ name: "", value: "", secret: false, stored: false });
export const emptyAssertion = (kind: AssertionKind = "statusCode"): AssertionRow => ({
  kind,
  compare: "eq",
  target: kind === "statusCode" ? "200" : "",
  key: "",
  path: kind === "jsonBody" ? "$." : "",
  property: "expiresIn",
  severity: "error",
});

export function emptyDraft(frequency: string, regions: string[]): Draft {
  return {
    kind: "http",
    fields: {},
    fieldsStored: false,
    assertionsText: "",
    name: "",
    key: "",
    description: "",
    tags: "",
    url: "",
    method: "GET",
    body: "",
    followRedirects: true,
    headers: [],
    assertions: [emptyAssertion()],
    host: "",
    port: "",
    frequency,
    regions,
    timeout: "45s",
    degradedAfter: "",
    retry: "3",
    failureThreshold: "1",
    successThreshold: "1",
    otelEndpoint: "",
    otelHeaders: [],
    channels: [],
    remindEvery: "",
    remindPerChannel: false,
    escalationPolicy: "",
    dependsOn: [],
    active: true,
    hbMode: "period",
    period: "5m",
    cron: "",
    timezone: "UTC",
    grace: "1m",
  };
}

export const JSON_RPC_PING_BODY = '{"jsonrpc":"2.0","id":"1","method":"ping"}';
/** The spec's healthy ping answer: an empty result, the version and the same id. */
export const JSON_RPC_PING_REPLY = '{"result":{},"jsonrpc":"2.0","id":"1"}';

/** The JSON-RPC 2.0 ping preset: POST, JSON in, JSON or event-stream out, the empty result asserted. */
export function jsonRpcPreset(d: Draft): Draft {
  const others = d.headers.filter((h) => !["content-type", "accept"].includes(h.name.trim().toLowerCase()) && h.name.trim() !== "");
  return {
    ...d,
    kind: "http",
    method: "POST",
    body: JSON_RPC_PING_BODY,
    headers: [
      { name: "Content-Type", value: "application/json", secret: false, stored: false },
      { name: "Accept", value: "application/json, text/event-stream", secret: false, stored: false },
      ...others,
    ],
    assertions: [
      { ...emptyAssertion("statusCode"), target: "200" },
      { ...emptyAssertion("textBody"), target: JSON_RPC_PING_REPLY },
    ],
  };
}

/** 45000 → "45s", 800 → "800ms", 60000 → "1m", 3600000 → "1h". */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** A reminder interval as people type it: 7200000 → "2h", 1800000 → "30m". */
const intervalText = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : durationText(ms));

/** A dependency as the form's checkbox value: its key, or `#<id>` for a monitor without one. */
export const dependencyValue = (ref: string | number) => (typeof ref === "number" ? `#${ref}` : ref);
const dependencyRef = (v: string): string | number => (/^#\d{1,15}$/.test(v) ? Number(v.slice(1)) : v);

const headerRows = (h: Record<string, string>, marked: readonly string[]): HeaderRow[] =>
  Object.entries(h).map(([name, value]) => {
    const stored = value === REDACTED;
    return { name, value: stored ? "" : value, secret: marked.some((m) => m.toLowerCase() === name.toLowerCase()), stored };
  });

const targetText = (t: unknown) => (t === null || t === undefined ? "" : typeof t === "string" ? t : JSON.stringify(t));

/** A stored monitor as the form shows it: secret values never reach the page, only "set". */
export function draftOf(m: Monitor): Draft {
  const base = emptyDraft(m.frequency, m.regions);
  const common = {
    ...base,
    name: m.name,
    key: m.key ?? "",
    description: m.description,
    tags: m.tags.join(", "),
    frequency: m.frequency,
    regions: m.regions,
    timeout: durationText(m.timeout),
    degradedAfter: durationText(m.degradedAfter),
    retry: String(m.retry),
    failureThreshold: String(m.failureThreshold),
    successThreshold: String(m.successThreshold),
    otelEndpoint: m.openTelemetry?.endpoint ?? "",
    otelHeaders: headerRows(m.openTelemetry?.headers ?? {}, []),
    channels: m.channels,
    remindEvery: typeof m.remindEvery === "number" ? intervalText(m.remindEvery) : "",
    remindPerChannel: typeof m.remindEvery === "object" && m.remindEvery !== null,
    escalationPolicy: m.escalationPolicy ?? "",
    dependsOn: (m.dependsOn ?? []).map(dependencyValue),
    active: m.active,
  };
  if (isGenericKind(m.kind)) {
    const own = m as unknown as { request: Record<string, unknown>; assertions?: unknown[] };
    return {
      ...common,
      kind: m.kind,
      fields: fieldsText(m.kind, own.request),
      fieldsStored: true,
      assertionsText: own.assertions?.length ? JSON.stringify(own.assertions, null, 2) : "",
      assertions: [],
    };
  }
  if (m.kind === "tcp") return { ...common, kind: "tcp", host: m.request.host, port: String(m.request.port), assertions: [] };
  if (m.kind === "heartbeat") {
    const r = m.request;
    return {
      ...common,
      kind: "heartbeat",
      assertions: [],
      hbMode: r.cron !== undefined ? "cron" : "period",
      period: durationText(r.period ?? 300_000),
      cron: r.cron ?? "",
      timezone: r.timezone ?? "UTC",
      grace: durationText(r.grace),
    };
  }
  if (m.kind !== "http") return common;
  return {
    ...common,
    kind: "http",
    url: m.request.url,
    method: m.request.method,
    body: m.request.body ?? "",
    followRedirects: m.request.followRedirects,
    headers: headerRows(m.request.headers, m.request.secretHeaders ?? []),
    assertions: m.assertions.map((a) => ({
      kind: a.kind,
      compare: a.compare,
      target: targetText("target" in a ? a.target : ""),
      key: a.kind === "header" ? a.key : "",
      path: a.kind === "jsonBody" ? a.path : "",
      property: a.kind === "certificate" ? a.property : "expiresIn",
      severity: a.kind === "certificate" ? a.severity : "error",
    })),
  };
}

// ── Form fields ↔ draft ──────────────────────────────────────────────────────

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};
/** Rows named `<prefix>.<i>.<field>`, in index order (gaps from removed rows are fine). */
function rows(form: FormData, prefix: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  for (const [name, value] of form.entries()) {
    const m = new RegExp(`^${prefix}\\.(\\d{1,3})\\.([a-zA-Z]+)$`).exec(name);
    if (!m || typeof value !== "string") continue;
    const i = Number(m[1]);
    out.set(i, { ...out.get(i), [m[2]!]: value });
  }
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

const headerRowsOf = (form: FormData, prefix: string): HeaderRow[] =>
  [...rows(form, prefix).values()].map((r) => ({
    name: r.name ?? "",
    value: r.value ?? "",
    secret: r.secret === "on",
    stored: r.stored === "1",
  }));

/** What the browser posted, as the form's model. */
export function draftFromForm(form: FormData): Draft {
  return {
    kind: (ALL_KINDS as string[]).includes(str(form, "kind")) ? (str(form, "kind") as CheckKindName) : "http",
    fields: Object.fromEntries(
      [...form.entries()].flatMap(([k, v]) => (k.startsWith("field.") && typeof v === "string" ? [[k.slice(6), v]] : [])),
    ),
    fieldsStored: str(form, "fieldsStored") === "1",
    assertionsText: str(form, "assertionsText"),
    name: str(form, "name"),
    key: str(form, "key"),
    description: str(form, "description"),
    tags: str(form, "tags"),
    url: str(form, "url"),
    method: str(form, "method") || "GET",
    body: str(form, "body"),
    followRedirects: str(form, "followRedirects") === "on",
    headers: headerRowsOf(form, "header"),
    assertions: [...rows(form, "assertion").values()].map((r) => ({
      kind: (ASSERTION_KINDS.some((k) => k.kind === r.kind) ? r.kind : "statusCode") as AssertionKind,
      compare: r.compare ?? "eq",
      target: r.target ?? "",
      key: r.key ?? "",
      path: r.path ?? "",
      property: r.property ?? "expiresIn",
      severity: r.severity ?? "error",
    })),
    host: str(form, "host"),
    port: str(form, "port"),
    frequency: str(form, "frequency"),
    regions: form.getAll("regions").filter((v): v is string => typeof v === "string"),
    timeout: str(form, "timeout"),
    degradedAfter: str(form, "degradedAfter"),
    retry: str(form, "retry"),
    failureThreshold: str(form, "failureThreshold"),
    successThreshold: str(form, "successThreshold"),
    otelEndpoint: str(form, "otelEndpoint"),
    otelHeaders: headerRowsOf(form, "otelHeader"),
    channels: form.getAll("channels").filter((v): v is string => typeof v === "string"),
    remindEvery: str(form, "remindEvery"),
    remindPerChannel: str(form, "remindPerChannel") === "1",
    escalationPolicy: str(form, "escalationPolicy"),
    dependsOn: form.getAll("dependsOn").filter((v): v is string => typeof v === "string"),
    active: str(form, "active") === "on",
    hbMode: str(form, "hbMode") === "cron" ? "cron" : "period",
    period: str(form, "period"),
    cron: str(form, "cron"),
    timezone: str(form, "timezone"),
    grace: str(form, "grace"),
  };
}

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

/** What the monitor form's actions hand back. */
export interface MonitorFormState {
  error?: string;
  /** A limit's key and who can lift it (lib/limit-help.ts). */
  info?: Record<string, string>;
  fields?: Record<string, string>;
  /** After a failed save without JavaScript: the form as posted, secrets blanked. */
  draft?: Draft;
  test?: { ok: true; location: { name: string; region: string }; result: CheckResult } | { ok: false; message: string };
  at?: number;
}
