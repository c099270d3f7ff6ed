import { passSessionSecondFactor, secondFactorStatus, sessionPassedSecondFactor } from "@vigil/core";
import { hashToken } from "@vigil/db-schema";
import { cookies } from "next/headers";
import { cache } from "react";
import { getDb } from "./db";

/** Auth.js's session cookie (the `__Secure-` one on https). */
const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"];

async function sessionTokenHash(): Promise<string | null> {
  const jar = await cookies();
  for (const name of SESSION_COOKIES) {
    const v = jar.get(name)?.value;
    if (v) return hashToken(v);
  }
  return null;
}

/**
 * Where the signed-in user stands with their second factor: `pending` when they have an authenticator app
 * and this session has not yet passed a code. Until then the session reaches nothing but the code page.
 */
export const secondFactorOf = cache(async (userId: string) => {
  const db = getDb();
  const status = await secondFactorStatus(db, userId);
  if (!status.enrolled) return { ...status, pending: false };
  const token = await sessionTokenHash();
  return { ...status, pending: !token || !(await sessionPassedSecondFactor(db, token)) };
});

/** Marks the current session as having passed the second factor. */
export async function passCurrentSession(): Promise<void> {
  const token = await sessionTokenHash();
  if (token) await passSessionSecondFactor(getDb(), token);
}
