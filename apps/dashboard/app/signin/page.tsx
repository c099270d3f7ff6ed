import { MailWarning } from "lucide-react";
import { redirect } from "next/navigation";
import { signInWithProvider } from "../../features/signin/actions";
import { SignInForm } from "../../features/signin/signin-form";
import { SignUpRule } from "../../features/signin/signup-rule";
import { getEnv, publicOrigin, signInMail } from "../../lib/env";
import { refusalText } from "../../lib/rate-limit";
import { safeRedirectPath } from "../../lib/redirect";
import { currentUser } from "../../lib/session";
import { signUpRefusalText } from "../../lib/signup-gate";
import { CardPage } from "../../ui/card-page";
import { buttonClass, Notice } from "../../ui/ui";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  Verification: "This sign-in link has expired or was already used. Enter your email to get a new one.",
  OAuthAccountNotLinked: "This email already signs in another way. Use the method you used the first time.",
  AccessDenied: "Sign-in was refused.",
  EmailUnverified:
    "Sign-in was refused: your identity provider has not verified your e-mail address. Verify it there (or ask its administrator), then try again.",
  Configuration: "Sign-in is not set up correctly on this server. Ask the operator to check the dashboard's log.",
};

export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  const next = safeRedirectPath(sp.callbackUrl, publicOrigin());
  if (await currentUser()) redirect(next);
  const env = getEnv();
  const mail = signInMail(env);
  const oauth = [
    env.AUTH_GITHUB_ID ? { id: "github", name: "GitHub" } : null,
    env.AUTH_GOOGLE_ID ? { id: "google", name: "Google" } : null,
    env.AUTH_OIDC_ISSUER ? { id: "oidc", name: env.AUTH_OIDC_NAME } : null,
  ].filter((p) => p !== null);
  const refused = refusalText(new URLSearchParams(Object.entries(sp).filter((e): e is [string, string] => e[1] !== undefined)));
  const error = sp.error ? (refused ?? signUpRefusalText(sp) ?? ERRORS[sp.error] ?? "Sign-in failed. Try again.") : null;
  return (
    <CardPage>
      <h1 className="text-xl font-semibold">Sign in</h1>
      <SignUpRule />
      {error ? (
        <div className="mt-4">
          <Notice tone="red">{error}</Notice>
        </div>
      ) : null}
      <div className="mt-6 grid gap-4">
        {mail === "none" ? (
          <Notice>
            <span className="flex gap-2">
              <MailWarning className="size-4 shrink-0" aria-hidden />
              <span>
                Email is not configured on this server, so sign-in links cannot be sent. The operator sets <code>SMTP_URL</code> or{" "}
                <code>EMAIL_PROVIDER_API_KEY</code> (with <code>EMAIL_FROM</code>).
              </span>
            </span>
          </Notice>
        ) : (
          <SignInForm callbackUrl={next} />
        )}
        {mail === "log" ? (
          <p className="text-xs text-zinc-500">No mail server is set: the link is printed in the dashboard's log.</p>
        ) : null}
        {oauth.length > 0 ? (
          <>
            <div className="flex items-center gap-3 text-xs text-zinc-400">
              <span className="h-px flex-1 bg-zinc-200" />
              or
              <span className="h-px flex-1 bg-zinc-200" />
            </div>
            {oauth.map((p) => (
              <form key={p.id} action={signInWithProvider}>
                <input type="hidden" name="provider" value={p.id} />
                <input type="hidden" name="callbackUrl" value={next} />
                <button type="submit" className={buttonClass("secondary", "w-full")}>
                  Continue with {p.name}
                </button>
              </form>
            ))}
          </>
        ) : null}
      </div>
    </CardPage>
  );
}
