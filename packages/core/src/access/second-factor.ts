// Second factor: an authenticator app (TOTP, RFC 6238) per user, recovery codes, and the workspace rule that asks for it.
import { randomBytes } from "node:crypto";
import { type Db, session, userTotp } from "@vigil/db-schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Actor } from "../audit";
import { ConflictError, ValidationError } from "../errors";
import { sha256 } from "../secrets";
import { updateWorkspaceAudited } from "./workspace";

const PERIOD_S = 30;
const RECOVERY_CODES = 10;

const totpOf = (base32: string, label = "") =>
  new TOTP({ issuer: "Vigil", label, algorithm: "SHA1", digits: 6, period: PERIOD_S, secret: Secret.fromBase32(base32) });

/** Recovery codes as people type them: `xxxx-xxxx-xx`, compared without dashes, spaces or case. */
const normalizeRecovery = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

export interface SecondFactorStatus {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

export async function secondFactorStatus(db: Db, userId: string): Promise<SecondFactorStatus> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  return { enrolled: !!row?.confirmedAt, recoveryCodesLeft: row?.confirmedAt ? row.recoveryCodes.length : 0 };
}

/**
 * Starts (or restarts) enrolment: a new secret, stored encrypted and unconfirmed until a code from the app
 * proves it was copied. Returns the otpauth URI (for the QR code) and the key for typing in by hand.
 */
export async function startTotpEnrolment(db: Db, u: { id: string; email?: string | null }) {
  if ((await secondFactorStatus(db, u.id)).enrolled) throw new ConflictError("an authenticator app is already set up; remove it first");
  const base32 = new Secret({ size: 20 }).base32;
  await db
    .insert(userTotp)
    .values({ userId: u.id, secret: { base32 }, confirmedAt: null, recoveryCodes: [], lastStep: null })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secret: { base32 }, confirmedAt: null, recoveryCodes: [], lastStep: null } });
  return { secret: base32, uri: totpOf(base32, u.email ?? u.id).toString() };
}

const codeField = (message: string) => new ValidationError(`code: ${message}`, [{ path: "code", message }]);

/** The 30-second step a 6-digit code matches (this one or a neighbour, for clock drift), or null. */
function matchingStep(base32: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(base32).validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD_S) + delta;
}

/** Confirms enrolment with a code from the app; returns the recovery codes, shown this once (only hashes are kept). */
export async function confirmTotpEnrolment(db: Db, userId: string, code: string, nowMs = Date.now()): Promise<string[]> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  if (!row || row.confirmedAt) throw new ConflictError("start the set-up again: there is no authenticator waiting for a code");
  const step = matchingStep(row.secret.base32, code.trim(), nowMs);
  if (step === null) throw codeField("is not the current 6-digit code of your authenticator app");
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const hex = randomBytes(5).toString("hex");
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  const done = await db
    .update(userTotp)
    .set({ confirmedAt: nowMs, lastStep: step, recoveryCodes: codes.map((c) => sha256(normalizeRecovery(c))) })
    .where(and(eq(userTotp.userId, userId), isNull(userTotp.confirmedAt)))
    .returning({ userId: userTotp.userId });
  if (done.length !== 1) throw new ConflictError("the set-up changed meanwhile; start again");
  return codes;
}

/**
 * Checks a second factor: a current TOTP code (each 30-second code works once) or an unused recovery code
 * (spent by this use). The caller rate-limits attempts. Returns how it passed, or throws naming the field.
 */
export async function checkSecondFactor(db: Db, userId: string, input: string, nowMs = Date.now()): Promise<"totp" | "recovery"> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  if (!row?.confirmedAt) throw new ConflictError("no authenticator app is set up for this account");
  const code = input.trim();
  if (/^\d{6}$/.test(code)) {
    const step = matchingStep(row.secret.base32, code, nowMs);
    if (step === null) throw codeField("is not the current code of your authenticator app");
    // Conditional on the step moving forward: a code seen once (even by a racing request) is spent.
    const moved = await db
      .update(userTotp)
      .set({ lastStep: step })
      .where(and(eq(userTotp.userId, userId), sql`coalesce(${userTotp.lastStep}, -1) < ${step}`))
      .returning({ userId: userTotp.userId });
    if (moved.length !== 1) throw codeField("was already used; wait for the next code");
    return "totp";
  }
  const hash = sha256(normalizeRecovery(code));
  if (!/^[0-9a-f]{10}$/.test(normalizeRecovery(code)) || !row.recoveryCodes.includes(hash))
    throw codeField("is neither a 6-digit code nor an unused recovery code");
  const spent = await db
    .update(userTotp)
    .set({ recoveryCodes: row.recoveryCodes.filter((h) => h !== hash) })
    .where(and(eq(userTotp.userId, userId), sql`${userTotp.recoveryCodes} = ${JSON.stringify(row.recoveryCodes)}`))
    .returning({ userId: userTotp.userId });
  if (spent.length !== 1) throw codeField("was just used; each recovery code works once");
  return "recovery";
}

/** Marks a session (by its stored, hashed token) as having passed the second factor. */
export async function passSessionSecondFactor(db: Db, sessionTokenHash: string, nowMs = Date.now()): Promise<void> {
  await db.update(session).set({ secondFactorAt: nowMs }).where(eq(session.sessionToken, sessionTokenHash));
}

/** Whether the session (hashed token) has passed the second factor. */
export async function sessionPassedSecondFactor(db: Db, sessionTokenHash: string): Promise<boolean> {
  const [row] = await db.select({ at: session.secondFactorAt }).from(session).where(eq(session.sessionToken, sessionTokenHash));
  return row?.at != null;
}

/** Removes the authenticator app (after a valid code or recovery code, checked by the caller with checkSecondFactor). */
export async function removeTotp(db: Db, userId: string): Promise<void> {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
}

/** The owner's rule: every member signs in with a second factor before using the workspace. */
export async function setWorkspaceSecondFactor(db: Db, workspaceId: number, required: boolean, actor: Actor): Promise<void> {
  await updateWorkspaceAudited(
    db,
    workspaceId,
    { requireSecondFactor: required },
    actor,
    required ? "second-factor-required" : "second-factor-optional",
  );
}
