// Reading the status-page editor's forms into the shared API inputs, and its errors back into fields.
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { notFound } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { log } from "../../lib/log";

/** `links.0.url` → `links`: a form shows one message per control. */
const fieldOf = (path: string) => path.split(".")[0] || "form";

/** A domain error as the form shows it; a limit names its key; anything unexpected is logged, never a 500. */
export function statusFailed(err: unknown): ActionState {
  const at = Date.now();
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[fieldOf(i.path)] ??= i.message;
    return { error: err.message, fields, at };
  }
  if (err instanceof LimitExceededError) return { error: `Limit reached — ${err.message}`, info: { limit: String(err.violation.key) }, at };
  if (err instanceof ConflictError) {
    // A taken slug or domain belongs next to its field.
    const field = /slug/.test(err.message) ? "slug" : /domain/.test(err.message) ? "customDomain" : null;
    return field ? { error: err.message, fields: { [field]: err.message.replace(/^the /, "") }, at } : { error: err.message, at };
  }
  if (err instanceof ForbiddenError) return { error: "Only owners and admins can do this.", at };
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "status-page editor action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at };
}

export const text = (form: FormData, name: string) => String(form.get(name) ?? "");
/** Empty → null, for optional fields the API takes as null. */
export const orNull = (form: FormData, name: string) => text(form, name).trim() || null;
export const checked = (form: FormData, name: string) => form.get(name) === "on";

/** A positive id from the form; anything else is -1, which no row has (→ not found). */
export function idOf(form: FormData, name: string): number {
  const raw = text(form, name);
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
}

/** Same as idOf for route params. */
export const paramId = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : -1);

/** `link-label-N` / `link-url-N` rows; rows left blank are dropped. */
export function linksOf(form: FormData) {
  const links: { label: string; url: string }[] = [];
  for (let i = 0; i < 10; i++) {
    const label = text(form, `link-label-${i}`).trim();
    const url = text(form, `link-url-${i}`).trim();
    if (label || url) links.push({ label, url });
  }
  return links;
}

/** `impact-<componentId>` selects: "none" leaves the component out. */
export function affectedOf(form: FormData) {
  const out: { componentId: number; impact: string }[] = [];
  for (const [k, v] of form.entries()) {
    const m = /^impact-(\d{1,15})$/.exec(k);
    if (m && v !== "none") out.push({ componentId: Number(m[1]), impact: String(v) });
  }
  return out;
}

/** A `datetime-local` value in the browser's zone (offset in minutes as getTimezoneOffset gives it) → ms. */
export function localTime(form: FormData, name: string): number | string {
  const raw = text(form, name);
  const offset = Number(text(form, "tzOffset") || 0);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(raw) || !Number.isFinite(offset)) return raw;
  return Date.parse(`${raw}${raw.length === 16 ? ":00" : ""}Z`) + offset * 60_000;
}

/** One field's error when the value could not even be read (before the shared schema sees it). */
export const fieldError = (field: string, message: string): ActionState => ({
  error: message,
  fields: { [field]: message },
  at: Date.now(),
});
