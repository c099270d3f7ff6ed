"use server";
import { ConflictError, deleteMonitor, NotFoundError, runMonitorNow, updateMonitor, ValidationError } from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { getBus, monitorsChanged } from "../../lib/bus";
import { getDb } from "../../lib/db";
import { log } from "../../lib/log";
import { actionMember } from "../../lib/session";

const monitorIdOf = (form: FormData) => {
  const raw = String(form.get("monitorId") ?? "");
  if (!/^\d{1,15}$/.test(raw)) notFound();
  return Number(raw);
};

function refused(err: unknown): ActionState {
  if (err instanceof NotFoundError) notFound();
  if (err instanceof ValidationError || err instanceof ConflictError) return { error: err.message, at: Date.now() };
  if (err instanceof LimitExceededError) return { error: `Limit reached — ${err.message}`, at: Date.now() };
  log().error({ err }, "monitor action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
}

/** Pause or resume: the same update (rules, limits, audit) as `PATCH /v1/monitors/:id {active}`. */
export async function setMonitorActiveAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const id = monitorIdOf(form);
  const active = form.get("active") === "true";
  try {
    await updateMonitor(getDb(), m.workspace.id, id, { active }, `user:${m.user.id}`);
  } catch (err) {
    return refused(err);
  }
  await monitorsChanged(m.workspace.id);
  revalidatePath(`/w/${m.workspace.id}/monitors`, "layout");
  return {
    ok: true,
    info: { message: active ? "Resumed: probes run it again from their next slot." : "Paused: no checks, no alerts." },
    at: Date.now(),
  };
}

/** Runs the saved monitor now on a probe serving it and shows what it saw. */
export async function triggerMonitorAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const id = monitorIdOf(form);
  const bus = getBus();
  if (!bus) return { error: "Running a check now needs the server's Redis (REDIS_URL is not set for the dashboard).", at: Date.now() };
  let out: Awaited<ReturnType<typeof runMonitorNow>>;
  try {
    out = await runMonitorNow(getDb(), await bus, m.workspace.id, id, `user:${m.user.id}`);
  } catch (err) {
    if (err instanceof NotFoundError) return refused(err);
    log().warn({ err }, "check now failed");
    return { error: "Could not reach the probe bus (Redis); try again in a moment.", at: Date.now() };
  }
  if (!out.ok) return { error: out.message, at: Date.now() };
  const r = out.result;
  return {
    ok: true,
    info: {
      status: r.status,
      location: `${out.location.name} (${out.location.region})`,
      latency: `${r.latencyMs} ms`,
      ...(r.statusCode ? { code: String(r.statusCode) } : {}),
      ...(r.errorMessage ? { error: r.errorMessage } : {}),
    },
    at: Date.now(),
  };
}

/** Deletes the monitor (audited in core) and returns to the list. */
export async function deleteMonitorAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form);
  if (!m.ok) return { error: m.error, at: Date.now() };
  const id = monitorIdOf(form);
  try {
    await deleteMonitor(getDb(), m.workspace.id, id, `user:${m.user.id}`);
  } catch (err) {
    return refused(err);
  }
  await monitorsChanged(m.workspace.id);
  revalidatePath(`/w/${m.workspace.id}/monitors`, "layout");
  redirect(`/w/${m.workspace.id}/monitors?deleted=${id}`);
}
