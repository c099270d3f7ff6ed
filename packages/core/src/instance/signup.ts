import { type Db, signupInvitation } from "@vigil/db-schema";
import { presets } from "@vigil/limits";
import { eq, sql } from "drizzle-orm";
import { type InstanceRules, isInstanceAdmin, type SignupMode, signupMode } from "./rules";

export interface SignInRefusal {
  code: "closed" | "invite" | "disabled";
  message: string;
}

const REFUSALS: Record<SignInRefusal["code"], string> = {
  closed:
    "Sign-up on this Vigil instance is closed: only addresses invited to a workspace and the instance's admins can sign in. Ask the person who runs it, or a workspace admin, to invite this address.",
  invite:
    "This Vigil instance is by invitation only: this address has no invitation yet. Ask the person who runs it to invite it (Instance → Invite), or a workspace admin to add it as a member.",
  disabled: "This account has been disabled by an admin of this Vigil instance. Ask them to enable it again.",
};

export const refusalMessage = (code: SignInRefusal["code"]): string => REFUSALS[code];

/**
 * Whether `email` may sign in under the instance's sign-up rule, before any link is sent. Known people,
 * invited addresses and instance admins always may (a disabled account never); strangers only when sign-up
 * is open, or with an instance invitation when it is by invitation. The answer says nothing beyond the rule.
 */
export async function signInRefusal(db: Db, email: string, rules: InstanceRules, nowMs = Date.now()): Promise<SignInRefusal | null> {
  const address = email.trim().toLowerCase();
  const [row] = await db.all<{ known: number; disabled: number; invited: number; instanceInvited: number; anyone: number }>(sql`SELECT
      EXISTS (SELECT 1 FROM user WHERE lower(email) = ${address} AND disabled_at IS NULL) AS known,
      EXISTS (SELECT 1 FROM user WHERE lower(email) = ${address} AND disabled_at IS NOT NULL) AS disabled,
      EXISTS (SELECT 1 FROM invitation WHERE lower(email) = ${address} AND accepted_at IS NULL AND expires_at > ${nowMs}) AS invited,
      EXISTS (SELECT 1 FROM signup_invitation WHERE email = ${address} AND used_at IS NULL) AS instanceInvited,
      NOT EXISTS (SELECT 1 FROM user) AS anyone`);
  if (Number(row?.disabled)) return { code: "disabled", message: REFUSALS.disabled };
  if (Number(row?.known) || Number(row?.invited) || Number(row?.anyone)) return null;
  if (rules.adminEmails.includes(address)) return null;
  const mode = await signupMode(db, rules);
  if (mode === "open") return null;
  if (mode === "invite" && Number(row?.instanceInvited)) return null;
  return { code: mode, message: REFUSALS[mode] };
}

/**
 * The workspace a first sign-in creates, if any: instance admins and open sign-up get one (open: the
 * VIGIL_SIGNUP_LIMITS preset), an instance invitation its preset; everyone else joins through an invitation.
 * `limits` null means restricted (nothing set, so the page says how to lift it).
 */
export async function newWorkspacePolicy(
  db: Db,
  u: { id: string; email?: string | null },
  rules: InstanceRules,
): Promise<{ limits: string | null; invitation?: string } | null> {
  const toLimits = (preset: string) =>
    preset === "restricted" || !(preset in presets) ? null : JSON.stringify(presets[preset as keyof typeof presets]);
  const email = (u.email ?? "").toLowerCase();
  const [invited] = email ? await db.select().from(signupInvitation).where(eq(signupInvitation.email, email)) : [];
  if (invited && invited.usedAt === null) return { limits: toLimits(invited.preset), invitation: email };
  if (await isInstanceAdmin(db, u, rules)) return { limits: null };
  const mode: SignupMode = await signupMode(db, rules);
  return mode === "open" ? { limits: toLimits(rules.signupLimits) } : null;
}

/** Marks an instance invitation used once its workspace exists. */
export async function markSignupInvitationUsed(db: Db, email: string): Promise<void> {
  await db.update(signupInvitation).set({ usedAt: Date.now() }).where(eq(signupInvitation.email, email));
}
