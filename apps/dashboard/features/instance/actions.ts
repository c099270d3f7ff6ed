"use server";
// The instance area's forms: every action checks the instance admin first (anyone else: 404).
import {
  adminSetLimits,
  adminSetPlan,
  createAdminToken,
  createWorkspaceFor,
  inviteToInstance,
  NotFoundError,
  revokeAdminToken,
  setUserDisabled,
  ValidationError,
} from "@vigil/core";
import { LIMIT_KEYS } from "@vigil/limits";
import { sendMail } from "@vigil/notifier";
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { getEnv, publicOrigin, signInMail } from "../../lib/env";
import { instanceActor } from "../../lib/instance";
import { log } from "../../lib/log";
import { mailLayout } from "../../lib/mail";

function failed(err: unknown): ActionState {
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[i.path.replace(/^set\./, "")] ??= i.message;
    return { error: err.message, fields, at: Date.now() };
  }
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "instance action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
}

const idOf = (form: FormData) => {
  const raw = String(form.get("workspaceId") ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
};
const text = (form: FormData, name: string) => String(form.get(name) ?? "");

async function run(change: (actor: string) => Promise<ActionState | undefined>, path = "/instance"): Promise<ActionState> {
  const actor = await instanceActor();
  try {
    const out = await change(actor);
    revalidatePath(path, "layout");
    return out ?? { ok: true, at: Date.now() };
  } catch (err) {
    return failed(err);
  }
}

export async function applyPresetAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    await adminSetLimits(getDb(), idOf(form), { preset: text(form, "preset") as "team" }, actor);
    return undefined;
  });
}

export async function saveLimitsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    const set: Record<string, string> = {};
    for (const key of LIMIT_KEYS) {
      const values = form.getAll(key).map(String);
      // A checkbox sends "true" when ticked and only its hidden "false" otherwise.
      if (values.length > 0) set[key] = values.includes("true") ? "true" : values.join(",");
    }
    await adminSetLimits(getDb(), idOf(form), { set }, actor);
    return undefined;
  });
}

export async function setPlanAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    await adminSetPlan(
      getDb(),
      idOf(form),
      { plan: text(form, "plan"), paidUntil: text(form, "paidUntil"), endsAt: text(form, "endsAt") },
      actor,
    );
    return undefined;
  });
}

export async function createWorkspaceForAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    const made = await createWorkspaceFor(
      getDb(),
      { email: text(form, "email"), name: text(form, "name") || undefined, preset: text(form, "preset") as "restricted" },
      actor,
    );
    const info: Record<string, string> = { email: made.email, workspace: String(made.workspace.id) };
    if (!made.invitationToken) return { ok: true, info: { ...info, joined: "yes" }, at: Date.now() };
    const url = `${publicOrigin()}/invite/${made.invitationToken}`;
    const env = getEnv();
    if (signInMail(env) === "mail") {
      const res = await sendMail(env, {
        to: made.email,
        key: `invite-${made.invitationToken.slice(-24)}`,
        ...mailLayout({
          subject: "A Vigil workspace is waiting for you",
          intro: `An admin of this Vigil instance made the workspace "${made.workspace.name}" for you. The link works once and expires in 30 days.`,
          action: "Open your workspace",
          url,
          outro: "If you did not expect this, ignore this mail.",
        }),
      });
      if (!res.ok) log().warn({ email: made.email, error: res.error }, "workspace invitation mail not sent");
    }
    return { ok: true, info: { ...info, url }, at: Date.now() };
  });
}

export async function inviteToInstanceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    const inv = await inviteToInstance(getDb(), { email: text(form, "email"), preset: text(form, "preset") as "restricted" }, actor);
    return { ok: true, info: { email: inv.email, signin: `${publicOrigin()}/signin` }, at: Date.now() };
  });
}

export async function setUserDisabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    await setUserDisabled(getDb(), text(form, "userId"), text(form, "disabled") === "true", actor);
    return undefined;
  });
}

export async function createAdminTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    const t = await createAdminToken(getDb(), { name: text(form, "name") }, actor);
    return { ok: true, secret: t.token, info: { name: t.name }, at: Date.now() };
  });
}

export async function revokeAdminTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return run(async (actor) => {
    const raw = text(form, "tokenId");
    if (!(await revokeAdminToken(getDb(), /^\d{1,15}$/.test(raw) ? Number(raw) : -1, actor))) throw new NotFoundError("token", raw);
    return undefined;
  });
}
