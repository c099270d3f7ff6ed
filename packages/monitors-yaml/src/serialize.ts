import { checkKinds, entryKeys, type Monitor, MonitorInput, REDACTED } from "@vigil/api-contract";
import * as yaml from "js-yaml";
import { placeholders, secretEnvName, urlPlaceholders } from "./secrets";

export const SCHEMA_COMMENT = "# yaml-language-server: $schema=./vigil.schema.json";

type AnyMonitor = Monitor | MonitorInput;

/** The values the schema fills in: parse a minimal monitor, drop what we gave it. Never restated here. */
function schemaDefaults(minimal: Record<string, unknown> & { request: Record<string, unknown> }) {
  const parsed = MonitorInput.parse(minimal) as Record<string, unknown> & { request: Record<string, unknown> };
  const strip = (o: Record<string, unknown>, given: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !(k in given)));
  return { ...strip(parsed, minimal), request: strip(parsed.request, minimal.request) };
}
const DEFAULTS = Object.fromEntries(
  Object.values(checkKinds).map((k) => [
    k.kind,
    schemaDefaults({ kind: k.kind, ...(k.serverSide ? {} : { frequency: "1m", regions: ["ams"] }), request: k.exampleRequest }),
  ]),
) as Record<AnyMonitor["kind"], ReturnType<typeof schemaDefaults>>;

// An empty string is kept: it can differ from "not set" (a jsonBody target of "" is not null).
function isEmpty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "object" && v !== null && Object.keys(v).length === 0)
  );
}

/** Copies the fields that differ from the default, in the order a person would write them. */
function pick(source: Record<string, unknown>, defaults: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = source[k];
    if (isEmpty(v)) continue;
    if (k in defaults && JSON.stringify(defaults[k]) === JSON.stringify(v)) continue;
    out[k] = v;
  }
  return out;
}

const ASSERTION_ORDER = ["kind", "key", "path", "property", "compare", "target", "severity"];

function toEntry(m: AnyMonitor, entryKey: string): Record<string, unknown> {
  const defaults = DEFAULTS[m.kind];
  const entry = pick(m as Record<string, unknown>, defaults, [
    "name",
    "description",
    "tags",
    "kind",
    "frequency",
    "active",
    "public",
    "regions",
    "retry",
    "failureThreshold",
    "successThreshold",
    "timeout",
    "degradedAfter",
  ]);
  if ("id" in m && m.name === "") delete entry.name; // a stored monitor's "" means it has no name
  // A request's headers may hold secrets the server redacted, its URL a password or a token: they become placeholders.
  let request: Record<string, unknown> = m.request;
  if ("headers" in m.request) request = { ...request, headers: placeholders(m.request.headers, entryKey) };
  if ("url" in m.request) request = { ...request, url: urlPlaceholders(m.request.url, entryKey) };
  if ("connection" in m.request && m.request.connection === REDACTED)
    request = { ...request, connection: `\${${secretEnvName(entryKey, "connection")}}` };
  entry.request = pick(request, defaults.request, checkKinds[m.kind].requestOrder);
  if ("assertions" in m && m.assertions.length > 0) {
    // Every field an assertion kind has, the usual ones first.
    const order = (a: object) => [...new Set([...ASSERTION_ORDER, ...Object.keys(a)])];
    entry.assertions = m.assertions.map((a) => pick(a as Record<string, unknown>, {}, order(a)));
  }
  if (m.openTelemetry) {
    const otel = { ...m.openTelemetry, headers: placeholders(m.openTelemetry.headers, entryKey, true) };
    entry.openTelemetry = pick(otel, {}, ["endpoint", "headers"]);
  }
  if (m.channels && m.channels.length > 0) entry.channels = m.channels;
  return entry;
}

// Short lists (regions, channels) and assertion items read best on one line, like the examples.
const flowStyle = (documents: yaml.Document[]) =>
  yaml.visit(documents, (node, ctx) => {
    if (node.kind === "sequence" && node.items.every((i) => i.kind === "scalar")) node.style = yaml.COLLECTION_STYLE.FLOW;
    if (node.kind === "mapping" && ctx.parent?.kind === "sequence") node.style = yaml.COLLECTION_STYLE.FLOW;
  });

/**
 * Writes monitors as a monitors file (what `vigil import` prints). Durations are milliseconds, as
 * OpenStatus writes them; fields at their default are left out. Secrets the server redacted become
 * `${VAR}` placeholders that the CLI fills from the environment on upload. Parsing the output (with
 * those variables set) gives the same monitors.
 */
export function serializeMonitorsYaml(monitors: readonly Monitor[] | readonly MonitorInput[]): string {
  const list: readonly AnyMonitor[] = monitors;
  const keys = entryKeys(list);
  const blocks = list.map((m, i) =>
    yaml.dump({ [keys[i] as string]: toEntry(m, keys[i] as string) }, { lineWidth: -1, noRefs: true, transform: flowStyle }),
  );
  return `${SCHEMA_COMMENT}\n${blocks.join("\n")}`;
}
