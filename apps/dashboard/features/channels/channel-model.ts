// Channel forms are generated from each kind's config schema in packages/notifier: its JSON Schema
// gives the field types, its meta the labels and help, its `secrets` list the write-only fields.
import { CHANNEL_KINDS, type ChannelKind, channels, REDACTED } from "@vigil/notifier";
import { z } from "zod";
import type { ActionState } from "../../lib/action-state";

/** A channel form's answer; after an error it carries back what was typed (never a secret), since the form resets. */
export type ChannelFormState = ActionState & { values?: Record<string, string> };

export type FieldType = "text" | "url" | "email" | "number" | "boolean" | "enum" | "map" | "list";

export interface FieldSpec {
  key: string;
  label: string;
  help?: string;
  example?: string;
  type: FieldType;
  required: boolean;
  /** Write-only: never sent back to the browser, shown as set / not set. */
  secret: boolean;
  options?: string[];
  defaultValue?: string | boolean;
  pattern?: string;
}

export interface KindSpec {
  kind: ChannelKind;
  title: string;
  description: string;
  /** The limit keys creating one checks beyond `notifications` and `notification-channels`. */
  needs: string[];
  fields: FieldSpec[];
  /** The field holding the URL the secrets go to (webhook url, ntfy server), when the user sets it. */
  destination?: string;
}

interface JsonField {
  type?: string;
  format?: string;
  enum?: unknown[];
  title?: string;
  description?: string;
  examples?: unknown[];
  default?: unknown;
  pattern?: string;
  items?: JsonField;
}

const typeOf = (f: JsonField): FieldType => {
  if (f.enum) return "enum";
  if (f.type === "boolean") return "boolean";
  if (f.type === "number" || f.type === "integer") return "number";
  if (f.type === "object") return "map";
  if (f.type === "array") return "list";
  if (f.format === "uri") return "url";
  if (f.format === "email") return "email";
  return "text";
};

const humanize = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

const NEEDS: Partial<Record<ChannelKind, string[]>> = { sms: ["sms"], whatsapp: ["sms"], pagerduty: ["incident-alerting"] };

function build(kind: ChannelKind): KindSpec {
  const def = channels[kind];
  const schema = z.toJSONSchema(def.config, { io: "input", unrepresentable: "any" }) as JsonField & {
    properties: Record<string, JsonField>;
    required?: string[];
  };
  const secrets: readonly string[] = def.secrets;
  return {
    kind,
    title: schema.title ?? kind,
    description: schema.description ?? "",
    needs: NEEDS[kind] ?? [],
    ...(def.destination !== undefined && { destination: def.destination }),
    fields: Object.entries(schema.properties).map(([key, f]) => ({
      key,
      label: f.title ?? humanize(key),
      type: typeOf(f),
      required: schema.required?.includes(key) ?? false,
      secret: secrets.includes(key),
      ...(f.description !== undefined && { help: f.description }),
      ...(f.examples?.[0] !== undefined && { example: String(f.examples[0]) }),
      ...(f.enum && { options: f.enum.map(String) }),
      ...((typeof f.default === "string" || typeof f.default === "boolean") && { defaultValue: f.default }),
      ...(f.pattern !== undefined && typeOf(f) === "text" && { pattern: f.pattern }),
    })),
  };
}

const specs = new Map<ChannelKind, KindSpec>();
export function kindSpec(kind: ChannelKind): KindSpec {
  const cached = specs.get(kind);
  if (cached) return cached;
  const s = build(kind);
  specs.set(kind, s);
  return s;
}
export const allKinds = (): KindSpec[] => CHANNEL_KINDS.map(kindSpec);

/** What the edit form may show of a stored (already redacted) config: plain values, and for secrets only whether they are set. */
export interface FormValues {
  values: Record<string, string | boolean>;
  /** Secret field → set or not. */
  set: Record<string, boolean>;
  /** Map fields → their entries; secret maps keep the names and drop the values. */
  maps: Record<string, { name: string; value: string }[]>;
  lists: Record<string, string[]>;
}

export function formValues(spec: KindSpec, redacted: Record<string, unknown>): FormValues {
  const out: FormValues = { values: {}, set: {}, maps: {}, lists: {} };
  for (const f of spec.fields) {
    const v = redacted[f.key];
    if (f.type === "map") {
      const entries = v && typeof v === "object" ? Object.entries(v as Record<string, unknown>) : [];
      out.maps[f.key] = entries.map(([name, value]) => ({ name, value: f.secret ? "" : String(value) }));
    } else if (f.type === "list") out.lists[f.key] = Array.isArray(v) ? v.map(String) : [];
    else if (f.secret) out.set[f.key] = v !== undefined && v !== null && v !== "";
    else if (typeof v === "boolean") out.values[f.key] = v;
    else if (v !== undefined && v !== null) out.values[f.key] = String(v);
  }
  return out;
}

/**
 * The config a submitted form describes. Blank optional fields are left out; on edit a blank secret
 * (or a blank value of a kept secret header) becomes "***", which core reads as "keep the stored one".
 */
export function configFromForm(spec: KindSpec, form: FormData, editing: boolean): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const name = `config.${f.key}`;
    if (f.type === "boolean") {
      config[f.key] = form.get(name) === "on";
      continue;
    }
    if (f.type === "map") {
      const names = form.getAll(`${name}.name`).map(String);
      const values = form.getAll(`${name}.value`).map(String);
      const kept = new Set(form.getAll(`${name}.kept`).map(String));
      const map: Record<string, string> = {};
      names.forEach((n, i) => {
        const key = n.trim();
        const value = values[i] ?? "";
        if (key === "" && value === "") return;
        map[key] = editing && f.secret && value === "" && kept.has(key) ? REDACTED : value;
      });
      if (Object.keys(map).length > 0 || f.required) config[f.key] = map;
      continue;
    }
    if (f.type === "list") {
      const items = String(form.get(name) ?? "")
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length > 0 || f.required) config[f.key] = items;
      continue;
    }
    const raw = String(form.get(name) ?? "").trim();
    if (raw === "") {
      // A stored secret left blank is kept unless the user ticked "remove"; a blank required field reads "is required".
      if (editing && f.secret && form.get(`${name}.set`) === "1" && form.get(`${name}.clear`) !== "on") config[f.key] = REDACTED;
      continue;
    }
    config[f.key] = f.type === "number" && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  return config;
}

/** The form field an issue path belongs to: `config.headers.X-Api` is the headers field. */
export function fieldOf(path: string): string {
  const [head, key] = path.split(".");
  return head === "config" && key !== undefined ? `config.${key}` : (head ?? "");
}

/** The submitted name and plain config values, to refill the form after an error. Secrets are never echoed. */
/** The answer timeout as typed in seconds, in ms (NaN when it is not a number, which the rule then names). */
export function timeoutFromForm(form: FormData): number | undefined {
  const raw = String(form.get("timeoutSeconds") ?? "").trim();
  return raw === "" ? undefined : Math.round(Number(raw) * 1000);
}

export function echo(spec: KindSpec, form: FormData): Record<string, string> {
  const out: Record<string, string> = { name: String(form.get("name") ?? ""), timeoutSeconds: String(form.get("timeoutSeconds") ?? "") };
  for (const f of spec.fields) {
    if (f.secret || f.type === "map" || f.type === "boolean") continue;
    out[`config.${f.key}`] = String(form.get(`config.${f.key}`) ?? "");
  }
  return out;
}
