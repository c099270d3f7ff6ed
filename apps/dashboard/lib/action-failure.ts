// What a dashboard action answers when core refuses: shared by the workspace's small forms.
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { notFound } from "next/navigation";
import type { ActionState } from "./action-state";
import { log } from "./log";

/** Maps a domain error to what the form shows; anything unexpected is logged, never a 500 page. */
export function failed(err: unknown, fieldOf: (path: string) => string = (p) => p): ActionState {
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[fieldOf(i.path)] ??= i.message;
    return { error: err.message, fields, at: Date.now() };
  }
  if (err instanceof LimitExceededError) return { error: `Limit reached — ${err.message}`, at: Date.now() };
  if (err instanceof ConflictError) return { error: err.message, at: Date.now() };
  if (err instanceof ForbiddenError) return { error: `Only owners and admins can do this.`, at: Date.now() };
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "dashboard action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
}

export const idOf = (form: FormData, name: string) => {
  const raw = String(form.get(name) ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
};
