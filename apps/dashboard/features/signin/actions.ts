"use server";
import { notFound, redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn, signOut } from "../../auth";
import type { ActionState } from "../../lib/action-state";
import { getEnv, publicOrigin, signInMail } from "../../lib/env";
import { log } from "../../lib/log";
import { refusalText } from "../../lib/rate-limit";
import { safeRedirectPath } from "../../lib/redirect";
import { signUpRefusalText } from "../../lib/signup-gate";

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
