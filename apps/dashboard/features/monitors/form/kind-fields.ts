// The form for kinds without a hand-made section: one input per `request` field, typed from the
// kind's own schema in the registry, so a new kind needs nothing here.
import { type CheckKindName, checkKinds, kindOf, REDACTED, type RequestField, requestFields } from "@vigil/api-contract";

/** Kinds the form has its own sections for; every other kind gets the generic one. */
export const CUSTOM_FORM_KINDS = ["http", "tcp", "heartbeat"] as const;
export const isGenericKind = (k: CheckKindName) => !(CUSTOM_FORM_KINDS as readonly string[]).includes(k);
/** Every kind the form offers; for server-side ones (heartbeats) the schedule and locations do not apply. */
export const ALL_KINDS = Object.keys(checkKinds) as CheckKindName[];
export const isServerSide = (k: CheckKindName) => !!kindOf(k).serverSide;

/** The kind's `request` fields in the order people write them, as the registry describes them. */
export const kindFields = (kind: CheckKindName): RequestField[] => requestFields(kindOf(kind));

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
