import {
  checkKinds,
  type Frequency,
  keepStored,
  kindOf,
  type Monitor,
  type MonitorHealth,
  type MonitorInput,
  REDACTED,
  SecretNotKeptError,
} from "@vigil/api-contract";
import type { monitor } from "@vigil/db-schema";
import { ValidationError } from "../errors";

export type Row = typeof monitor.$inferSelect;

const redactHeaders = (h: Record<string, string> | null | undefined) =>
  h ? Object.fromEntries(Object.keys(h).map((k) => [k, REDACTED])) : {};

/** The private locations of a workspace as health needs them. */
export type LocationCoverage = readonly { region: string; online: boolean }[];

export function monitorHealth(
  row: Pick<Row, "active" | "regions" | "status"> & { kind?: Row["kind"] },
  locations: LocationCoverage,
): MonitorHealth {
  if (!row.active) return "paused";
  // A heartbeat needs no probe: the server hears its pings.
  if (row.kind && kindOf(row.kind).serverSide) return row.status === "active" ? "ok" : row.status;
  const serving = locations.filter((l) => row.regions.includes(l.region));
  if (serving.length === 0) return "no-probe";
  if (!serving.some((l) => l.online)) return "no-data";
  return row.status === "active" ? "ok" : row.status;
}

/**
 * A stored row as the API shows it: OTLP header values and secret request headers never leave
 * the server. `reveal` is for the probe, which needs the real values to run the check.
 */
export function toMonitor(
  row: Row,
  channels: string[],
  { reveal = false, locations = [] }: { reveal?: boolean; locations?: LocationCoverage } = {},
): Monitor {
  const common = {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    tags: row.tags,
    frequency: row.frequency as Frequency,
    active: row.active,
    public: row.public,
    regions: row.regions as Monitor["regions"],
    retry: row.retry,
    failureThreshold: row.failureThreshold,
    successThreshold: row.successThreshold,
    timeout: row.timeoutMs,
    degradedAfter: row.degradedAfterMs,
    openTelemetry: row.otelEndpoint ? { endpoint: row.otelEndpoint, headers: redactHeaders(row.otelHeaders) } : null,
    channels,
    status: row.status,
    health: monitorHealth(row, locations),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  return { ...common, kind: row.kind, ...kindOf(row.kind).fromRow(row, reveal) } as Monitor;
}

/** The input that would produce this monitor (for PATCH merges and apply diffs). */
export function toInput(m: Monitor): MonitorInput {
  const base = {
    key: m.key ?? undefined,
    name: m.name || undefined,
    description: m.description,
    tags: m.tags,
    frequency: m.frequency,
    active: m.active,
    public: m.public,
    regions: m.regions,
    retry: m.retry,
    failureThreshold: m.failureThreshold,
    successThreshold: m.successThreshold,
    timeout: m.timeout,
    degradedAfter: m.degradedAfter ?? undefined,
    openTelemetry: m.openTelemetry ?? undefined,
    channels: m.channels,
    ...(m.remindEvery ? { remindEvery: m.remindEvery } : {}),
    ...(m.escalationPolicy ? { escalationPolicy: m.escalationPolicy } : {}),
    ...(m.dependsOn && m.dependsOn.length > 0 ? { dependsOn: m.dependsOn } : {}),
  };
  const own = Object.keys(kindOf(m.kind).output).map((k) => [k, m[k as keyof Monitor]]);
  return { ...base, kind: m.kind, ...Object.fromEntries(own) } as MonitorInput;
}

/**
 * The columns to store for `input` over `previous`. "***" keeps a stored secret only while its
 * destination's origin is unchanged; otherwise a ValidationError names each header (`at` prefixes the paths).
 */
export function toColumns(input: MonitorInput, previous?: Row, at = "") {
  try {
    return columns(input, previous);
  } catch (err) {
    if (!(err instanceof SecretNotKeptError)) throw err;
    const issues = err.issues.map((i) => ({ path: [at, i.path].filter(Boolean).join("."), message: i.message }));
    throw new ValidationError(`${issues[0]!.path}: ${issues[0]!.message}`, issues);
  }
}

function columns(input: MonitorInput, previous?: Row) {
  const otelHeaders = input.openTelemetry
    ? keepStored(input.openTelemetry.headers, previous?.otelHeaders, {
        path: "openTelemetry.headers",
        stored: previous?.otelEndpoint,
        draft: input.openTelemetry.endpoint,
      })
    : null;
  // Every kind's columns: the others are cleared, then the monitor's own kind fills its own (kinds may share a column).
  const others = Object.values(checkKinds).filter((k) => k.kind !== input.kind);
  const kindColumns: Partial<Row> = Object.assign(
    {},
    ...others.map((k) => kindOf(k.kind).toRow(undefined, previous)),
    kindOf(input.kind).toRow(input, previous),
  );
  return {
    key: input.key ?? null,
    name: input.name ?? input.key ?? "",
    description: input.description,
    tags: input.tags,
    kind: input.kind,
    frequency: input.frequency,
    active: input.active,
    public: input.public,
    regions: [...new Set(input.regions)],
    retry: input.retry,
    failureThreshold: input.failureThreshold,
    successThreshold: input.successThreshold,
    timeoutMs: input.timeout,
    degradedAfterMs: input.degradedAfter ?? null,
    ...kindColumns,
    otelEndpoint: input.openTelemetry?.endpoint ?? null,
    otelHeaders,
  };
}
