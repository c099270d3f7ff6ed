// The sign-up rule at sign-in (VIGIL_SIGNUP): kept apart from auth.ts so the providers' code stays as it is.
import { refusalMessage, signInRefusal } from "@vigil/core";
import { getDb } from "./db";
import { rules } from "./instance-rules";

const CODES = ["closed", "invite", "disabled"] as const;

/** Where a refused address lands (the page names the rule), or null when it may sign in. */
export async function signUpGate(email: string | null | undefined): Promise<string | null> {
  if (!email) return null;
  const refusal = await signInRefusal(getDb(), email, rules());
  return refusal ? `/signin?error=SignUp&reason=${refusal.code}` : null;
}

/** The sentence for a `signUpGate` path's query, or null. */
export function signUpRefusalText(query: Record<string, string | undefined>): string | null {
  const code = CODES.find((c) => c === query.reason);
  return query.error === "SignUp" && code ? refusalMessage(code) : null;
}
