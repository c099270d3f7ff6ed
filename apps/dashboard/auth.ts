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
import { getEnv, signInMail } from "./lib/env";
import { log } from "./lib/log";
import { mailLayout } from "./lib/mail";
import { refusalPath, takeSignInMail } from "./lib/rate-limit";

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
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET)
    list.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
  if (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET)
    list.push(Google({ clientId: env.AUTH_GOOGLE_ID, clientSecret: env.AUTH_GOOGLE_SECRET }));
  return list;
}

// Database sessions: a session is a row, so signing out or removing a user ends it on the server at once.
// `req` is the route handler's request; a server action's signIn() has none, its headers are next/headers'.
export const { handlers, auth, signIn, signOut } = NextAuth((req) => ({
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
  secret: getEnv().AUTH_SECRET,
  session: { strategy: "database", maxAge: 30 * 24 * 60 * 60 },
  trustHost: true,
  providers: providers(),
  pages: { signIn: "/signin", verifyRequest: "/signin/check", error: "/signin" },
  callbacks: {
    // Before a sign-in link is made: a refused request mails nothing and stores nothing.
    async signIn({ account, email }) {
      if (!email?.verificationRequest || !account) return true;
      try {
        await takeSignInMail(account.providerAccountId, req?.headers ?? (await headers()));
        return true;
      } catch (err) {
        if (err instanceof RateLimitedError) return refusalPath(err);
        throw err;
      }
    },
    // A path on the host the browser is already on (where the session cookie was just set): behind
    // loopback Next may see "localhost" while the browser uses 127.0.0.1. Paths only: no open redirect.
    redirect({ url }) {
      if (url.startsWith("/") && !url.startsWith("//")) return url;
      try {
        const u = new URL(url);
        return `${u.pathname}${u.search}${u.hash}`;
      } catch {
        return "/";
      }
    },
  },
  events: {
    // The lite deployment has no workflows: expired links, sessions and unconfirmed subscribers go here too.
    async signIn() {
      await purgeExpired(getDb()).catch((err) => log().warn({ err: (err as Error).message }, "purge on sign-in failed"));
    },
  },
  logger: {
    error: (e) => log().warn({ err: { name: e.name, message: e.message } }, "auth"),
    warn: (code) => log().warn({ code }, "auth"),
  },
}));
