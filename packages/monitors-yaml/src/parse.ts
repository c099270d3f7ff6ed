import { checkKinds, MonitorInput } from "@vigil/api-contract";
import * as yaml from "js-yaml";
import type { z } from "zod";
import { indexSource, locate, type Position, type Segment, type SourceIndex, toPosition } from "./positions";
import { describeValue, displayPath, findUnknownKeys, isScalar, ruleText, suggestKey } from "./rules";
import { fillPlaceholders } from "./secrets";

/** One problem in a monitors file. `message` is the line to print: `file:line:column path rule`. */
export type YamlError = {
  file: string;
  line: number;
  column: number;
  /** Key path as printed, e.g. `api-health.request.url`; empty for problems with the whole file. */
  path: string;
  rule: string;
  message: string;
};

export type ParsedMonitors = {
  ok: true;
  monitors: MonitorInput[];
  /** Points a problem found later (e.g. by the server) at the file: entry by index, then the field path. */
  errorAt(entry: number, path: readonly Segment[], rule: string): YamlError;
};
export type ParseResult = ParsedMonitors | { ok: false; errors: YamlError[] };

// Merge keys (`<<: *defaults`) let a file share settings between entries.
const SCHEMA = yaml.CORE_SCHEMA.withTags(yaml.mergeTag);
const MAX_ALIASES = 1000;

export function formatYamlError(e: Omit<YamlError, "message">): string {
  return `${e.file}:${e.line}:${e.column} ${e.path ? `${e.path} ` : ""}${e.rule}`;
}

function makeError(file: string, at: Position, path: readonly Segment[], rule: string): YamlError {
  const e = { file, line: at.line, column: at.column, path: displayPath(path), rule };
  return { ...e, message: formatYamlError(e) };
}

function syntaxError(file: string, error: unknown): YamlError {
  if (error instanceof yaml.YAMLException) {
    const at = error.mark?.line !== undefined ? { line: error.mark.line + 1, column: error.mark.column + 1 } : { line: 1, column: 1 };
    return makeError(file, at, [], `invalid YAML: ${error.reason}`);
  }
  return makeError(file, { line: 1, column: 1 }, [], `invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur = value;
  for (const seg of path) {
    if (typeof cur !== "object" || cur === null || !Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/**
 * Reads a monitors file: a map of entry key → monitor fields, validated with api-contract's
 * `MonitorInput`. Returns every problem at once, each pointing at its line and column. With `env`,
 * `${NAME}` placeholders in header values are filled from it (a missing variable is a problem).
 */
export function parseMonitorsYaml(
  text: string,
  fileName = "monitors.yaml",
  opts: { env?: Record<string, string | undefined> } = {},
): ParseResult {
  let events: yaml.Event[];
  let index: SourceIndex;
  let documents: unknown[];
  try {
    events = yaml.parseEvents(text, { filename: fileName });
    index = indexSource(text, events);
    documents = yaml.constructFromEvents(events, { source: text, filename: fileName, schema: SCHEMA, json: true, maxAliases: MAX_ALIASES });
  } catch (error) {
    return { ok: false, errors: [syntaxError(fileName, error)] };
  }

  const start = { line: 1, column: 1 };
  if (index.documents > 1) {
    const at = index.secondDocumentAt >= 0 ? toPosition(index, index.secondDocumentAt) : start;
    return { ok: false, errors: [makeError(fileName, at, [], `the file must hold one YAML document (found ${index.documents})`)] };
  }
  const root = documents[0];
  if (root === undefined || root === null) {
    return { ok: false, errors: [makeError(fileName, start, [], "the file is empty: expected a map of entry key → monitor fields")] };
  }
  if (!isMap(root)) {
    const at = index.root ? toPosition(index, index.root.at) : start;
    const rule = `the top level must be a map of entry key → monitor fields (got ${describeValue(root)})`;
    return { ok: false, errors: [makeError(fileName, at, [], rule)] };
  }

  const errors: YamlError[] = [];
  const fail = (at: Position, path: readonly Segment[], rule: string) => errors.push(makeError(fileName, at, path, rule));

  for (const d of index.duplicates) {
    fail(toPosition(index, d.at), d.path, `is a duplicate key (first defined at line ${toPosition(index, d.firstAt).line})`);
  }

  // File order; keys the index could not name (e.g. brought in by a top-level merge) go last.
  const seen = new Set(index.entryKeys);
  const entryKeys = [...index.entryKeys.filter((k) => Object.hasOwn(root, k)), ...Object.keys(root).filter((k) => !seen.has(k))];
  const monitors: MonitorInput[] = [];

  for (const key of entryKeys) {
    const raw = root[key];
    if (!isMap(raw)) {
      fail(locate(index, [key]), [key], `must be a map of monitor fields (got ${describeValue(raw)})`);
      continue;
    }
    if (Object.hasOwn(raw, "key")) {
      fail(locate(index, [key, "key"], "key"), [key, "key"], `is not allowed: the entry key ("${key}") is the monitor's key`);
    }
    const { key: _ignored, ...fields } = raw;
    const input = { ...fields, key };
    if (opts.env) {
      for (const m of fillPlaceholders(input, opts.env)) {
        fail(locate(index, [key, ...m.path]), [key, ...m.path], `uses \${${m.name}}, which is not set in the environment`);
      }
    }
    for (const u of findUnknownKeys(MonitorInput, input)) {
      const name = String(u.path.at(-1));
      const allowed = u.path.length === 1 ? u.allowed.filter((k) => k !== "key") : u.allowed;
      fail(locate(index, [key, ...u.path], "key"), [key, ...u.path], `is an unknown key (${suggestKey(name, allowed)})`);
    }
    let parsed: ReturnType<typeof MonitorInput.safeParse>;
    try {
      parsed = MonitorInput.safeParse(input, { error: ruleText });
    } catch (error) {
      // A refinement that throws is a schema bug; still report it against the entry rather than crash.
      fail(locate(index, [key], "key"), [key], `could not be validated: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (parsed.success) {
      monitors.push(parsed.data);
      continue;
    }
    for (const issue of parsed.error.issues) {
      const problem = describeIssue(issue, input);
      if (!problem) continue;
      const path = [key, ...problem.path];
      if (problem.path.length === 1 && problem.path[0] === "key") {
        fail(locate(index, [key], "key"), [key], `is not a valid entry key: it ${problem.rule}`);
      } else {
        fail(locate(index, path, problem.pointAt), path, problem.rule);
      }
    }
  }

  if (errors.length > 0) return { ok: false, errors: sortErrors(errors) };
  return {
    ok: true,
    monitors,
    errorAt(entry, path, rule) {
      const key = entryKeys[entry];
      if (key === undefined) return makeError(fileName, start, [], rule);
      const full = [key, ...path];
      return makeError(fileName, locate(index, full), full, rule);
    },
  };
}

/** Request fields some kind keeps secret (a database's connection string): an error never shows their value. */
const SECRET_FIELDS = new Set(Object.values(checkKinds).flatMap((k) => k.secretFields ?? []));

/** Turns one zod issue into a path (inside the entry) and a rule with the offending value. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): { path: Segment[]; rule: string; pointAt: "key" | "value" } | null {
  if (issue.code === "unrecognized_keys") return null; // reported (with suggestions) by findUnknownKeys
  const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  if (issue.code === "invalid_key") {
    return { path, rule: issue.issues[0]?.message ?? issue.message, pointAt: "key" };
  }
  const value = valueAt(input, issue.path);
  let rule = issue.message;
  if (issue.code === "invalid_type" && issue.expected === "object") rule = value === undefined ? "is required" : "must be a map";
  // Union messages name their field ("kind must be http or tcp"); the path already does.
  const last = path.at(-1);
  if (typeof last === "string" && rule.startsWith(`${last} `)) rule = rule.slice(last.length + 1);
  const isEntryKey = path.length === 1 && path[0] === "key"; // printed as the entry itself
  const secret = path[0] === "request" && typeof last === "string" && SECRET_FIELDS.has(last); // never echoed
  if (!isEntryKey && !secret && rule !== "is required" && (value === undefined || issue.code === "invalid_type" || isScalar(value))) {
    rule += ` (got ${describeValue(value)})`;
  }
  return { path, rule, pointAt: "value" };
}

function sortErrors(errors: YamlError[]): YamlError[] {
  const unique = [...new Map(errors.map((e) => [e.message, e])).values()];
  return unique.sort((a, b) => a.line - b.line || a.column - b.column);
}
