"use server";
import {
  ConflictError,
  changeMemberRole,
  checkSecondFactor,
  confirmTotpEnrolment,
  ForbiddenError,
  NotFoundError,
  RATE_LIMITS,
  removeTotp,
  rotatePingKey,
  secondFactorStatus,
  setPingAutoCreate,
  setWorkspaceSecondFactor,
  startTotpEnrolment,
  ValidationError,
} from "@vigil/core";
import { RateLimitedError } from "@vigil/rate-limit";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import QRCode from "qrcode";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { publicOrigin } from "../../lib/env";
import { log } from "../../lib/log";
import { getLimiter } from "../../lib/rate-limit";
import { safeRedirectPath } from "../../lib/redirect";
import { passCurrentSession } from "../../lib/second-factor";
import { actionMember, currentUser, sessionUser } from "../../lib/session";

function failed(err: unknown): ActionState {
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const i of err.issues) fields[i.path] ??= i.message;
    return { error: err.message, fields, at: Date.now() };
  }
  if (err instanceof RateLimitedError) return { error: err.sentence, at: Date.now() };
  if (err instanceof ConflictError) return { error: err.message, at: Date.now() };
  if (err instanceof ForbiddenError) return { error: "Only owners can do this.", at: Date.now() };
  if (err instanceof NotFoundError) notFound();
  log().error({ err }, "account action failed");
  return { error: "Something went wrong on our side; nothing was changed. Try again.", at: Date.now() };
}

/** Every code typed counts against the account's share, right or wrong: guessing 6 digits stays hopeless. */
async function checkCode(userId: string, code: string) {
  await getLimiter().take(RATE_LIMITS.secondFactorPerUser, userId);
  return checkSecondFactor(getDb(), userId, code);
}

// ── Second factor: sign-in ───────────────────────────────────────────────────

/** The code page: a TOTP code or a recovery code completes a sign-in that owes its second factor. */
export async function verifySecondFactorAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const u = await sessionUser();
  if (!u) redirect("/signin");
  const code = String(form.get("code") ?? "");
  try {
    const via = await checkCode(u.id, code);
    await passCurrentSession();
    log().info({ userId: u.id, via }, "second factor passed");
  } catch (err) {
    return failed(err);
  }
  redirect(safeRedirectPath(form.get("callbackUrl"), publicOrigin()));
}

// ── Second factor: set-up ────────────────────────────────────────────────────

export async function startTotpAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  const u = await currentUser();
  if (!u) redirect("/signin");
  try {
    const { secret, uri } = await startTotpEnrolment(getDb(), u);
    return { ok: true, info: { secret, uri, qr: await QRCode.toString(uri, { type: "svg", margin: 1, width: 192 }) }, at: Date.now() };
  } catch (err) {
    return failed(err);
  }
}

export async function confirmTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const u = await currentUser();
  if (!u) redirect("/signin");
  try {
    await getLimiter().take(RATE_LIMITS.secondFactorPerUser, u.id);
    const codes = await confirmTotpEnrolment(getDb(), u.id, String(form.get("code") ?? ""));
    // The session that set it up has just shown a valid code. (No revalidation: the codes stay on screen until "Done".)
    await passCurrentSession();
    return { ok: true, secret: codes.join("\n"), at: Date.now() };
  } catch (err) {
    const state = failed(err);
    // Keep the QR code on screen after a wrong code.
    const uri = String(form.get("uri") ?? "");
    const qr = uri.startsWith("otpauth://") ? await QRCode.toString(uri, { type: "svg", margin: 1, width: 192 }) : "";
    return { ...state, info: { secret: String(form.get("secret") ?? ""), uri, qr } };
  }
}

export async function removeTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const u = await currentUser();
  if (!u) redirect("/signin");
  try {
    await checkCode(u.id, String(form.get("code") ?? ""));
    await removeTotp(getDb(), u.id);
  } catch (err) {
    return failed(err);
  }
  revalidatePath("/account");
  return { ok: true, at: Date.now() };
}

// ── Workspace rules and roles ────────────────────────────────────────────────

/** Owners only: every member must have a second factor to use the workspace. */
export async function setSecondFactorRuleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "owner");
  if (!m.ok) return { error: m.error, at: Date.now() };
  const required = form.get("required") === "on";
  // Else the owner would lock themselves out of the workspace they just saved.
  if (required && !(await secondFactorStatus(getDb(), m.user.id)).enrolled)
    return { error: "Set up your own authenticator app first (Account and second factor), then require it here.", at: Date.now() };
  await setWorkspaceSecondFactor(getDb(), m.workspace.id, required, `user:${m.user.id}`);
  revalidatePath(`/w/${m.workspace.id}`, "layout");
  return { ok: true, at: Date.now() };
}

/** Owners and admins make or replace the ping key (every URL by name with the old key stops working). */
export async function rotatePingKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  await rotatePingKey(getDb(), m.workspace.id, `user:${m.user.id}`);
  revalidatePath(`/w/${m.workspace.id}`, "layout");
  return { ok: true, at: Date.now() };
}

/** Owners and admins let a ping by name with `?create=1` make a missing heartbeat. */
export async function setPingAutoCreateAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  await setPingAutoCreate(getDb(), m.workspace.id, form.get("autoCreate") === "on", `user:${m.user.id}`);
  revalidatePath(`/w/${m.workspace.id}`, "layout");
  return { ok: true, at: Date.now() };
}

/** Owners and admins give members another role (viewer, member, admin; owners also owner). Audit-logged by core. */
export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    const role = String(form.get("role") ?? "") as "member";
    await changeMemberRole(getDb(), m.workspace.id, String(form.get("userId") ?? ""), role, { userId: m.user.id, role: m.role });
  } catch (err) {
    if (err instanceof ForbiddenError) return { error: "Only an owner can make or change an owner.", at: Date.now() };
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/members`);
  return { ok: true, at: Date.now() };
}
