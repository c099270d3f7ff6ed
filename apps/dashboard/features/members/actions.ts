"use server";
import { acceptInvitation, inviteMember, removeMember, revokeInvitation } from "@vigil/core";
import { sendMail } from "@vigil/notifier";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { failed, idOf } from "../../lib/action-failure";
import type { ActionState } from "../../lib/action-state";
import { getDb } from "../../lib/db";
import { getEnv, publicOrigin, signInMail } from "../../lib/env";
import { withLift } from "../../lib/limit-help";
import { log } from "../../lib/log";
import { mailLayout } from "../../lib/mail";
import { actionMember, currentUser } from "../../lib/session";

export async function inviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  let inv: Awaited<ReturnType<typeof inviteMember>>;
  try {
    inv = await inviteMember(
      getDb(),
      m.workspace.id,
      { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "member") as "member" },
      `user:${m.user.id}`,
    );
  } catch (err) {
    return withLift(failed(err), err, m.workspace);
  }
  revalidatePath(`/w/${m.workspace.id}/members`);
  const url = `${publicOrigin()}/invite/${inv.token}`;
  const env = getEnv();
  const wsName = inv.workspace.name ?? `workspace ${inv.workspace.id}`;
  if (signInMail(env) !== "mail") {
    log().info({ email: inv.email, url }, `invitation link for ${inv.email}: ${url}`);
    return { ok: true, info: { email: inv.email, url, mailed: "no" }, at: Date.now() };
  }
  const res = await sendMail(env, {
    to: inv.email,
    key: `invite-${inv.token.slice(-24)}`,
    ...mailLayout({
      subject: `You are invited to ${wsName} on Vigil`,
      intro: `${m.user.email ?? "A member"} invited you to the workspace "${wsName}" on Vigil as ${inv.role}. The link works once and expires in 7 days.`,
      action: "Accept the invitation",
      url,
      outro: "If you did not expect this, ignore this mail.",
    }),
  });
  if (!res.ok) {
    log().warn({ email: inv.email, error: res.error }, "invitation mail not sent");
    return { ok: true, info: { email: inv.email, url, mailed: "failed" }, at: Date.now() };
  }
  return { ok: true, info: { email: inv.email, mailed: "yes" }, at: Date.now() };
}

export async function revokeInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await revokeInvitation(getDb(), m.workspace.id, idOf(form, "id"), `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/members`);
  return { ok: true, at: Date.now() };
}

export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await removeMember(getDb(), m.workspace.id, String(form.get("userId") ?? ""), { userId: m.user.id, role: m.role });
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/members`);
  return { ok: true, at: Date.now() };
}

export async function acceptInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const u = await currentUser();
  const token = String(form.get("token") ?? "");
  if (!u) redirect(`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`);
  let wsId: number;
  try {
    wsId = (await acceptInvitation(getDb(), token, u)).workspaceId;
  } catch (err) {
    return failed(err);
  }
  redirect(`/w/${wsId}`);
}
