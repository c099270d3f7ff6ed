import {
  bootstrapUser,
  type MemberRole,
  markSignupInvitationUsed,
  NotFoundError,
  newWorkspacePolicy,
  requireMember,
  roleAtLeast,
} from "@vigil/core";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "../auth";

/** A workspace page's props with its query: the `[ws]` segment and the search parameters. */
export type WorkspacePageProps = { params: Promise<{ ws: string }>; searchParams: Promise<Record<string, string | undefined>> };

import { getDb } from "./db";
import { getEnv } from "./env";
import { rules } from "./instance-rules";
import { secondFactorOf } from "./second-factor";

export interface SignedIn {
  id: string;
  email: string | null;
  name: string | null;
}

/** The session's user, whether or not it has passed its second factor yet (the code page's view). */
export const sessionUser = cache(async (): Promise<SignedIn | null> => {
  const s = await auth();
  const id = s?.user?.id;
  return id ? { id, email: s.user?.email ?? null, name: s.user?.name ?? null } : null;
});

/** The signed-in user; a session still owing its second-factor code counts as signed out everywhere but the code page. */
export const currentUser = cache(async (): Promise<SignedIn | null> => {
  const u = await sessionUser();
  if (!u) return null;
  return (await secondFactorOf(u.id)).pending ? null : u;
});

export async function requireUser(next?: string): Promise<SignedIn> {
  const u = await currentUser();
  const query = next ? `?callbackUrl=${encodeURIComponent(next)}` : "";
  if (!u) redirect((await sessionUser()) ? `/signin/code${query}` : `/signin${query}`);
  return u;
}

/** A workspace whose owner asks for a second factor: a member without one is sent to set it up first. */
async function needsSecondFactor(userId: string, ws: { id: number; requireSecondFactor: boolean }): Promise<boolean> {
  return ws.requireSecondFactor && !(await secondFactorOf(userId)).enrolled;
}

/** The user's workspaces, creating one (or claiming the local one) on first sign-in. */
export const memberships = cache(async () => {
  const u = await requireUser();
  const db = getDb();
  const existing = await bootstrapUser(db, u, { localWorkspace: getEnv().LOCAL_WORKSPACE, newWorkspace: null });
  if (existing.length > 0) return existing;
  // No workspace yet: the sign-up rule says whether a first sign-in gets one, and with which limits.
  const policy = await newWorkspacePolicy(db, u, rules());
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
    if (await needsSecondFactor(u.id, m.workspace)) redirect(`/account?required=${m.workspace.id}`);
    return { user: u, workspace: m.workspace, role: m.role as MemberRole };
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
});

/** A workspace asks for a second factor that the member has not set up. */
export class SecondFactorRequired extends Error {
  response(): Response {
    return new Response("This workspace asks for a second factor: set one up under Account, then try again.\n", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
}

/**
 * For route handlers (downloads): the member as pages see them, the workspace's second-factor rule included.
 * Throws NotFoundError, ForbiddenError (below `atLeast`) or SecondFactorRequired.
 */
export async function downloadMember(workspaceId: number, userId: string, atLeast?: MemberRole) {
  const m = await requireMember(getDb(), workspaceId, userId, atLeast);
  if (await needsSecondFactor(userId, m.workspace)) throw new SecondFactorRequired("second factor required");
  return m;
}

const REFUSAL: Record<MemberRole, string> = {
  viewer: "Viewers can look but not change anything; ask an owner or admin for the member role.",
  member: "Only owners and admins can do this.",
  admin: "Only owners can do this.",
  owner: "Only owners can do this.",
};

/** For server actions: the member behind a form's workspace id, at least `atLeast`. 404 when not a member. */
export async function actionMember(form: FormData, atLeast: MemberRole = "member") {
  const u = await currentUser();
  if (!u) redirect("/signin");
  const raw = String(form.get("workspaceId") ?? "");
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  try {
    const m = await requireMember(getDb(), id, u.id);
    if (await needsSecondFactor(u.id, m.workspace))
      return { ok: false as const, error: "This workspace asks for a second factor: set up an authenticator app under Account first." };
    if (!roleAtLeast(m.role, atLeast)) return { ok: false as const, error: `${REFUSAL[m.role]} (your role: ${m.role})` };
    return { ok: true as const, user: u, workspace: m.workspace, role: m.role };
  } catch (err) {
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}
