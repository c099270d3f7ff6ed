"use server";
import {
  type ApiKeyScope,
  acceptInvitation,
  ConflictError,
  createApiKey,
  createPrivateLocation,
  deletePrivateLocation,
  ForbiddenError,
  inviteMember,
  NotFoundError,
  removeMember,
  renameWorkspace,
  revokeApiKey,
  revokeInvitation,
  ValidationError,
} from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { sendMail } from "@vigil/notifier";
import { revalidatePath } from "next/cache";
import { notFound, redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn, signOut } from "../auth";
import type { ActionState } from "./action-state";
import { getDb } from "./db";
import { getEnv, publicOrigin, signInMail } from "./env";
import { withLift } from "./limit-help";
import { log } from "./log";
import { mailLayout } from "./mail";
import { refusalText } from "./rate-limit";
import { safeRedirectPath } from "./redirect";
import { actionMember, currentUser } from "./session";
import { signUpRefusalText } from "./signup-gate";

/** Maps a domain error to what the form shows; anything unexpected is logged, never a 500 page. */
function failed(err: unknown, fieldOf: (path: string) => string = (p) => p): ActionState {
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

const idOf = (form: FormData, name: string) => {
  const raw = String(form.get(name) ?? "");
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
};

// ── Sign-in ──────────────────────────────────────────────────────────────────

const SignInInput = z.object({ email: z.string().trim().toLowerCase().pipe(z.email("must be an email address such as ana@example.com")) });

const safeNext = (v: FormDataEntryValue | null) => safeRedirectPath(v, publicOrigin());

export async function signInWithEmail(_prev: ActionState, form: FormData): Promise<ActionState> {
  const parsed = SignInInput.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) return { fields: { email: parsed.error.issues[0]!.message }, at: Date.now() };
  if (signInMail(getEnv()) === "none") return { error: "Email sign-in is not configured on this server.", at: Date.now() };
  let to: string;
  try {
    to = String(await signIn("email", { email: parsed.data.email, redirectTo: safeNext(form.get("callbackUrl")), redirect: false }));
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    log().warn({ err: err.message }, "sign-in link not sent");
    return { error: "We could not send the sign-in mail. Try again in a minute.", at: Date.now() };
  }
  const query = new URL(to, "http://x").searchParams;
  const refused = refusalText(query) ?? signUpRefusalText(Object.fromEntries(query));
  if (refused) return { error: refused, at: Date.now() };
  if (to.includes("error=")) return { error: "We could not send the sign-in mail. Try again in a minute.", at: Date.now() };
  redirect("/signin/check");
}

export async function signInWithProvider(form: FormData): Promise<void> {
  const provider = String(form.get("provider") ?? "");
  if (provider !== "github" && provider !== "google" && provider !== "oidc") notFound();
  await signIn(provider, { redirectTo: safeNext(form.get("callbackUrl")) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/signin" });
}

// ── Workspace ────────────────────────────────────────────────────────────────

export async function renameWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await renameWorkspace(getDb(), m.workspace.id, { name: String(form.get("name") ?? "") }, `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}`, "layout");
  return { ok: true, at: Date.now() };
}

// ── API keys ─────────────────────────────────────────────────────────────────

export async function createApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    const scopes = form.getAll("scopes").map(String) as ApiKeyScope[];
    const k = await createApiKey(getDb(), m.workspace.id, { name: String(form.get("name") ?? ""), scopes }, `user:${m.user.id}`, m.role);
    revalidatePath(`/w/${m.workspace.id}/api-keys`);
    return { ok: true, secret: k.key, info: { name: k.name, scopes: k.scopes.join(", ") }, at: Date.now() };
  } catch (err) {
    return failed(err);
  }
}

export async function revokeApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  const ok = await revokeApiKey(getDb(), m.workspace.id, idOf(form, "id"), `user:${m.user.id}`);
  if (!ok) notFound();
  revalidatePath(`/w/${m.workspace.id}/api-keys`);
  return { ok: true, at: Date.now() };
}

// ── Private locations ────────────────────────────────────────────────────────

export async function createLocationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    const { location, key } = await createPrivateLocation(
      getDb(),
      m.workspace.id,
      { name: String(form.get("name") ?? ""), region: String(form.get("region") ?? "") as "iad" },
      `user:${m.user.id}`,
    );
    revalidatePath(`/w/${m.workspace.id}/locations`);
    return {
      ok: true,
      secret: key,
      info: { id: String(location.id), name: location.name, region: location.region, ingestUrl: getEnv().PUBLIC_INGEST_URL },
      at: Date.now(),
    };
  } catch (err) {
    return withLift(failed(err), err, m.workspace);
  }
}

export async function deleteLocationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const m = await actionMember(form, "admin");
  if (!m.ok) return { error: m.error, at: Date.now() };
  try {
    await deletePrivateLocation(getDb(), m.workspace.id, idOf(form, "id"), `user:${m.user.id}`);
  } catch (err) {
    return failed(err);
  }
  revalidatePath(`/w/${m.workspace.id}/locations`);
  redirect(`/w/${m.workspace.id}/locations`);
}

// ── Members ──────────────────────────────────────────────────────────────────

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
