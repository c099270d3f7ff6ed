// The form for kinds without a hand-made section: one input per `request` field, typed from the
// kind's own schema in the registry, so a new kind needs nothing here.
import { type CheckKindName, checkKinds, kindOf, REDACTED } from "@vigil/api-contract";

/** Kinds the form has its own sections for; every other kind gets the generic one. */
export const CUSTOM_FORM_KINDS = ["http", "tcp"] as const;
export const isGenericKind = (k: CheckKindName) => !(CUSTOM_FORM_KINDS as readonly string[]).includes(k);
export const ALL_KINDS = Object.keys(checkKinds) as CheckKindName[];

export type FieldType = "string" | "number" | "boolean" | "map" | "list";
export interface KindField {
  name: string;
  type: FieldType;
  secret: boolean;
}

type Def = { type?: string; innerType?: unknown; in?: unknown };
const defOf = (s: unknown): Def =>
  ((s as { def?: Def; _zod?: { def?: Def } })?.def ?? (s as { _zod?: { def?: Def } })?._zod?.def ?? {}) as Def;

function typeOf(schema: unknown): FieldType {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(s);
    if (def.type === "default" || def.type === "optional" || def.type === "nullable") s = def.innerType;
    else if (def.type === "pipe") s = def.in;
    else break;
  }
  const t = defOf(s).type;
  return t === "number" ? "number" : t === "boolean" ? "boolean" : t === "record" ? "map" : t === "array" ? "list" : "string";
}

/** The kind's `request` fields in the order people write them. */
export function kindFields(kind: CheckKindName): KindField[] {
  const k = kindOf(kind);
  const shape = (k.input.request as unknown as { shape: Record<string, unknown> }).shape;
  return k.requestOrder
    .filter((name) => name in shape)
    .map((name) => ({ name, type: typeOf(shape[name]), secret: k.secretFields?.includes(name) ?? false }));
}

/** A stored request as the inputs show it (secrets blank: an empty secret keeps the stored one). */
export function fieldsText(kind: CheckKindName, request: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    kindFields(kind).map((f) => {
      const v = request[f.name];
      if (f.secret) return [f.name, ""];
      if (v === undefined || v === null) return [f.name, ""];
      if (f.type === "map" || f.type === "list") return [f.name, JSON.stringify(v)];
      return [f.name, String(v)];
    }),
  );
}

/** The inputs back to a `request`: numbers and switches as such, maps as JSON; an empty stored secret sends "***". */
export function requestOf(kind: CheckKindName, text: Record<string, string>, stored: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of kindFields(kind)) {
    const raw = text[f.name] ?? "";
    if (f.type === "boolean") {
      out[f.name] = raw === "on" || raw === "true";
      continue;
    }
    if (raw.trim() === "") {
      if (f.secret && stored) out[f.name] = REDACTED;
      continue;
    }
    if (f.type === "number") out[f.name] = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    else if (f.type === "map" || f.type === "list") {
      try {
        out[f.name] = JSON.parse(raw);
      } catch {
        out[f.name] = raw; // the schema names the field and its rule
      }
    } else out[f.name] = raw;
  }
  return out;
}

/** Assertions of a generic kind as typed (JSON), or the text left for the schema to name. */
export function assertionsOf(text: string): unknown {
  if (text.trim() === "") return [];
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What a monitor checks, in one line, without its secrets: the URL, host:port, or the kind. */
export function requestSummary(m: { kind: string; request: object }): string {
  const r = m.request as Record<string, unknown>;
  if (typeof r.url === "string") return r.url;
  if (typeof r.host === "string") {
    const host = r.host.includes(":") ? `[${r.host}]` : r.host;
    return typeof r.port === "number" ? `${host}:${r.port}` : host;
  }
  return m.kind;
}
