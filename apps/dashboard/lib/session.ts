import {
  bootstrapUser,
  ForbiddenError,
  instanceRules,
  type MemberRole,
  markSignupInvitationUsed,
  NotFoundError,
  newWorkspacePolicy,
  requireMember,
} from "@vigil/core";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "../auth";
import { getDb } from "./db";
import { getEnv } from "./env";

export interface SignedIn {
  id: string;
  email: string | null;
  name: string | null;
}

export const currentUser = cache(async (): Promise<SignedIn | null> => {
  const s = await auth();
  const id = s?.user?.id;
  return id ? { id, email: s.user?.email ?? null, name: s.user?.name ?? null } : null;
});

export async function requireUser(next?: string): Promise<SignedIn> {
  const u = await currentUser();
  if (!u) redirect(next ? `/signin?callbackUrl=${encodeURIComponent(next)}` : "/signin");
  return u;
}

/** The user's workspaces, creating one (or claiming the local one) on first sign-in. */
export const memberships = cache(async () => {
  const u = await requireUser();
  const db = getDb();
  const existing = await bootstrapUser(db, u, { localWorkspace: getEnv().LOCAL_WORKSPACE, newWorkspace: null });
  if (existing.length > 0) return existing;
  // No workspace yet: the sign-up rule says whether a first sign-in gets one, and with which limits.
  const policy = await newWorkspacePolicy(db, u, instanceRules(getEnv()));
  const list = await bootstrapUser(db, u, { newWorkspace: policy });
  if (policy?.invitation && list.length > 0) await markSignupInvitationUsed(db, policy.invitation);
  return list;
});

/** The signed-in member of the workspace in the URL; anything else is a 404. */
export const memberOf = cache(async (wsParam: string) => {
  const u = await requireUser();
  const id = /^\d{1,15}$/.test(wsParam) ? Number(wsParam) : Number.NaN;
  try {
    const m = await requireMember(getDb(), id, u.id);
    return { user: u, workspace: m.workspace, role: m.role as MemberRole };
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
});

/** For server actions: the member behind a form's workspace id, at least `atLeast`. 404 when not a member. */
export async function actionMember(form: FormData, atLeast: MemberRole = "member") {
  const u = await currentUser();
  if (!u) redirect("/signin");
  const raw = String(form.get("workspaceId") ?? "");
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  try {
    const m = await requireMember(getDb(), id, u.id, atLeast);
    return { ok: true as const, user: u, workspace: m.workspace, role: m.role };
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    if (err instanceof ForbiddenError) return { ok: false as const, error: `Only owners and admins can do this (your role: member).` };
    throw err;
  }
}
