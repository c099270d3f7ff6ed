"use server";
import {
  ChannelInput,
  ConflictError,
  createChannel,
  DeliveryTimeout,
  deleteChannel,
  NotFoundError,
  sendTestNotification,
  updateChannel,
  ValidationError,
} from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { isChannelKind, validateChannelConfig } from "@vigil/notifier";
import { RateLimitedError } from "@vigil/rate-limit";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { getEgress, getEnv } from "../../lib/env";
import { withLift } from "../../lib/limit-help";
import { log } from "../../lib/log";
import { getLimiter } from "../../lib/rate-limit";
import { actionMember } from "../../lib/session";
import { type ChannelFormState, configFromForm, echo, fieldOf, kindSpec, timeoutFromForm } from "./channel-model";

const now = () => Date.now();

/** A domain error as the form shows it; a limit names its key, anything unexpected is logged, never a 500. */
function failed(err: unknown): ActionState {
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[fieldOf(i.path)] ??= i.message;
    return { error: err.message, fields, at: now() };
  }
  if (err instanceof LimitExceededError) return { error: `Limit reached — ${err.message}`, info: { limit: err.violation.key }, at: now() };
  if (err instanceof ConflictError)
    return { error: err.message, fields: { name: err.message.replace(/^a notification channel named ".*" /, "") }, at: now() };
  if (err instanceof NotFoundError) notFound();
  if (err instanceof RateLimitedError) return { error: err.sentence, at: now() };
  log().error({ err }, "channel action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at: now() };
}

const idOf = (form: FormData) => {
  const raw = String(form.get("id") ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
};

/** Every field's problem at once (name and config), before anything is written. */
function checkAll(kind: string, name: string | undefined, config: Record<string, unknown>, timeoutMs?: number): ActionState | null {
  const fields: Record<string, string> = {};
  if (timeoutMs !== undefined) {
    const t = DeliveryTimeout.safeParse(timeoutMs);
    if (!t.success) fields.timeoutMs = "must be 1-30 seconds";
  }
  if (name !== undefined) {
    const n = ChannelInput.shape.name.safeParse(name);
    if (!n.success) fields.name = n.error.issues[0]!.message;
  }
  const v = validateChannelConfig(kind, config);
  // A "***" stands for a stored secret that core fills in; its rule was checked when it was stored.
  if (!v.ok) for (const i of v.issues) if (config[i.path.split(".")[0]!] !== "***") fields[`config.${i.path.split(".")[0]}`] ??= i.message;
  return Object.keys(fields).length > 0 ? { error: "Fix the fields marked below.", fields, at: now() } : null;
}

export async function createChannelAction(_prev: ChannelFormState, form: FormData): Promise<ChannelFormState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  const kind = String(form.get("kind") ?? "");
  if (!isChannelKind(kind)) return { error: "Choose a channel kind.", fields: { kind: "must be one of the kinds listed" }, at: now() };
  const name = String(form.get("name") ?? "");
  const spec = kindSpec(kind);
  const config = configFromForm(spec, form, false);
  const timeoutMs = timeoutFromForm(form);
  const bad = checkAll(kind, name, config, timeoutMs);
  if (bad) return { ...bad, values: echo(spec, form) };
  let id: number;
  try {
    id = (await createChannel(getDb(), m.workspace.id, { name, kind, config, enabled: true, timeoutMs }, `user:${m.user.id}`)).id;
  } catch (err) {
    return withLift({ ...failed(err), values: echo(spec, form) }, err, m.workspace);
  }
  revalidatePath(`/w/${m.workspace.id}/notifications`);
  redirect(`/w/${m.workspace.id}/notifications/${id}?created=1`);
}

export async function updateChannelAction(_prev: ChannelFormState, form: FormData): Promise<ChannelFormState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  const kind = String(form.get("kind") ?? "");
  if (!isChannelKind(kind)) notFound();
  const name = String(form.get("name") ?? "");
  const spec = kindSpec(kind);
  const config = configFromForm(spec, form, true);
  const timeoutMs = timeoutFromForm(form);
  const bad = checkAll(kind, name, config, timeoutMs);
  if (bad) return { ...bad, values: echo(spec, form) };
  try {
    await updateChannel(getDb(), m.workspace.id, idOf(form), { name, config, timeoutMs }, `user:${m.user.id}`);
  } catch (err) {
    return { ...failed(err), values: echo(spec, form) };
  }
  revalidatePath(`/w/${m.workspace.id}/notifications`, "layout");
  return { ok: true, at: now() };
}

export async function setChannelEnabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  try {
    await updateChannel(getDb(), m.workspace.id, idOf(form), { enabled: form.get("enabled") === "true" }, `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/notifications`, "layout");
  return { ok: true, at: now() };
}

export async function setChannelMonitorsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  const monitors = form
    .getAll("monitors")
    .map(String)
    .filter((v) => /^\d{1,15}$/.test(v))
    .map(Number);
  try {
    await updateChannel(getDb(), m.workspace.id, idOf(form), { monitors }, `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/notifications`, "layout");
  return { ok: true, info: { count: String(monitors.length) }, at: now() };
}

/** Sends a test message on the alerts' own path and hands back the provider's answer. */
export async function testChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  try {
    const sending = { env: getEnv(), egress: await getEgress(), limiter: getLimiter() };
    const res = await sendTestNotification(getDb(), m.workspace.id, idOf(form), `user:${m.user.id}`, sending);
    if (res.ok) return { ok: true, info: { status: String(res.status) }, at: now() };
    return { ok: false, error: res.error, info: res.status !== undefined ? { status: String(res.status) } : {}, at: now() };
  } catch (err) {
    return failed(err);
  }
}

export async function deleteChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: now() };
  try {
    await deleteChannel(getDb(), m.workspace.id, idOf(form), `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/notifications`);
  redirect(`/w/${m.workspace.id}/notifications`);
}
