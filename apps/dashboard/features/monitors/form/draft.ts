// The monitor form's model: what the inputs hold (strings, rows), and a stored monitor as such.
// Pure: the client form and the server actions both use it; posted.ts reads a post, input.ts makes the schema's input.
import { type Assertion, type CheckKindName, type CheckResult, COMPARATORS, type Monitor, REDACTED } from "@vigil/api-contract";
import { fieldsText, isGenericKind } from "./kind-fields";

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
