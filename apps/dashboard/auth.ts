import { createHash } from "node:crypto";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { purgeExpired } from "@vigil/core";
import { account, session, user, verificationToken } from "@vigil/db-schema";
import { sendMail } from "@vigil/notifier";
import { RateLimitedError } from "@vigil/rate-limit";
import { headers } from "next/headers";
import NextAuth, { type NextAuthConfig } from "next-auth";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { hashedSessions, oneLinkPerAddress } from "./lib/auth-adapter";
import { getDb } from "./lib/db";
import { type DashboardEnv, getEnv, publicOrigin, signInMail } from "./lib/env";
import { log } from "./lib/log";
import { mailLayout } from "./lib/mail";
import { applyDomainRule, oidcProvider } from "./lib/oidc";
import { refusalPath, takeSignInMail } from "./lib/rate-limit";
import { safeRedirectPath } from "./lib/redirect";
import { signUpGate } from "./lib/signup-gate";

const LINK_MINUTES = 15;

function providers(): NextAuthConfig["providers"] {
  const env = getEnv();
  const list: NextAuthConfig["providers"] = [];
  const mode = signInMail(env);
  if (mode !== "none") {
    list.push({
      id: "email",
      type: "email",
      name: "Email",
      maxAge: LINK_MINUTES * 60,
      // Links are stored hashed with this; AUTH_SECRET alone (not the whole rotation list) keeps links
      // mailed before a rotation secret was added working.
      secret: env.AUTH_SECRET,
      async sendVerificationRequest({ identifier, url, token }) {
        if (mode === "log") {
          // No mail transport outside production: the link goes to the log, which is how `pnpm start` signs in.
          log().info({ email: identifier, url }, `sign-in link for ${identifier}: ${url}`);
          return;
        }
        const key = `signin-${createHash("sha256").update(token).digest("hex").slice(0, 32)}`;
        const res = await sendMail(env, {
          to: identifier,
          key,
          ...mailLayout({
            subject: "Sign in to Vigil",
            intro: `Use this link to sign in to Vigil. It works once and expires in ${LINK_MINUTES} minutes.`,
            action: "Sign in",
            url,
            outro: "If you did not ask for it, ignore this mail.",
          }),
        });
        if (!res.ok) {
          log().error({ email: identifier, error: res.error }, "sign-in mail not sent");
          throw new Error("the sign-in mail could not be sent");
        }
      },
    });
  }
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) list.push(gitHub(env, env.AUTH_GITHUB_ID, env.AUTH_GITHUB_SECRET));
  if (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET)
    list.push(Google({ clientId: env.AUTH_GOOGLE_ID, clientSecret: env.AUTH_GOOGLE_SECRET }));
  const oidc = oidcProvider(env);
  if (oidc) list.push(oidc);
  return list;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub's profile, with the account's primary e-mail only when GitHub has verified it: Auth.js's own
 * fallback takes the primary (or first) address unverified, and a public profile address says nothing.
 */
function gitHub(env: DashboardEnv, clientId: string, clientSecret: string) {
  const base = env.AUTH_GITHUB_ENTERPRISE_URL;
  const api = base ? `${base}/api/v3` : "https://api.github.com";
  return GitHub({
    clientId,
    clientSecret,
    ...(base ? { enterprise: { baseUrl: base } } : {}),
    userinfo: {
      url: `${api}/user`,
      async request({ tokens }: { tokens: { access_token?: string } }) {
        const get = async (path: string) => {
          const res = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${tokens.access_token}`, "User-Agent": "vigil" } });
          if (!res.ok) throw new Error(`GitHub answered ${res.status} to ${path}`);
          return res.json();
        };
        const [profile, emails] = (await Promise.all([get("/user"), get("/user/emails")])) as [Record<string, unknown>, GitHubEmail[]];
        const primary = emails.find((e) => e.primary && e.verified);
        return { ...profile, email: primary?.email ?? null, email_verified: primary !== undefined };
      },
    },
  });
}

/** An OAuth sign-in goes on only with an address the provider says it verified: else anyone claims anyone's. */
export function oauthEmailVerified(profile: { email?: unknown; email_verified?: unknown } | undefined): boolean {
  return typeof profile?.email === "string" && profile.email !== "" && profile.email_verified === true;
}

// Database sessions: a session is a row, so signing out or removing a user ends it on the server at once.
// `req` is the route handler's request; a server action's signIn() has none, its headers are next/headers'.
export const { handlers, auth, signIn, signOut } = NextAuth((req) => {
  const env = getEnv();
  // Auth.js builds its own URLs (links, redirects, its actions) from process.env.AUTH_URL, else from the
  // request's (X-Forwarded-)Host: it must never have to guess.
  process.env.AUTH_URL ||= publicOrigin(env);
  return config(env, req?.headers);
});

function config(env: DashboardEnv, requestHeaders: Headers | undefined): NextAuthConfig {
  return {
    adapter: oneLinkPerAddress(
      hashedSessions(
        DrizzleAdapter(getDb(), {
          usersTable: user,
          accountsTable: account,
          sessionsTable: session,
          verificationTokensTable: verificationToken,
        }),
      ),
      getDb(),
    ),
    // Auth.js's rotation: the first secret signs, every one verifies (AUTH_SECRET_3..1 before AUTH_SECRET, its order).
    secret: [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET].filter((s) => s !== undefined),
    session: { strategy: "database", maxAge: 30 * 24 * 60 * 60 },
    providers: providers(),
    pages: { signIn: "/signin", verifyRequest: "/signin/check", error: "/signin" },
    callbacks: {
      // A path on the dashboard's own origin, whatever the callbackUrl said.
      redirect: ({ url }) => safeRedirectPath(url, publicOrigin(env)),
      async signIn({ account, profile, email, user }) {
        // Before a sign-in link is made: a refused request mails nothing and stores nothing.
        if (email?.verificationRequest && account) {
          try {
            await takeSignInMail(account.providerAccountId, requestHeaders ?? (await headers()));
          } catch (err) {
            if (err instanceof RateLimitedError) return refusalPath(err);
            throw err;
          }
          // After the rate limit: asking which addresses may sign in costs a sign-in mail's share.
          return (await signUpGate(account.providerAccountId)) ?? true;
        }
        if (account?.type !== "oauth" && account?.type !== "oidc") return (await signUpGate(user?.email)) ?? true;
        if (oauthEmailVerified(profile)) return (await signUpGate(profile?.email as string)) ?? true;
        log().warn({ provider: account.provider }, "OAuth sign-in refused: the provider has not verified the e-mail address");
        return "/signin?error=EmailUnverified";
      },
    },
    events: {
      // The lite deployment has no workflows: expired links, sessions and unconfirmed subscribers go here too.
      async signIn({ user, account }) {
        if (account?.provider === "oidc") await applyDomainRule(env, user);
        await purgeExpired(getDb()).catch((err) => log().warn({ err: (err as Error).message }, "purge on sign-in failed"));
      },
    },
    logger: {
      // The cause says what failed (a provider's answer, a discovery error); Auth.js's own message only links its docs.
      error: (e) => {
        const cause = (e as { cause?: { err?: unknown } }).cause?.err;
        log().warn({ err: { name: e.name, message: e.message, cause: cause instanceof Error ? cause.message : undefined } }, "auth");
      },
      warn: (code) => log().warn({ code }, "auth"),
    },
  };
}
