// Sign-in through the dashboard's own Auth.js handlers (no browser, no Next build): what the database keeps
// of a session and of a sign-in link must not sign anyone in.
import { session, verificationToken } from "@vigil/db-schema";
import { describe, expect, it } from "vitest";
import { authHandlersFixture, callAuth, cookiesOf } from "./auth-requests";

const auth = authHandlersFixture("sessions-test-secret-0123456789");

const call = (method: "GET" | "POST", path: string, cookie: string, body?: URLSearchParams) =>
  callAuth(auth.handlers, method, path, cookie, body);

async function sessionUser(cookie: string) {
  const res = await call("GET", "/api/auth/session", cookie);
  return ((await res.json()) as { user?: { email: string } } | null)?.user?.email ?? null;
}

describe("sign-in sessions", () => {
  it("the database keeps only a hash of the session cookie and of the sign-in link: neither signs in", async () => {
    const csrf = await call("GET", "/api/auth/csrf", "");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = cookiesOf(csrf)["authjs.csrf-token"]!;
    const sent = await call(
      "POST",
      "/api/auth/signin/email",
      csrfCookie,
      new URLSearchParams({ csrfToken, email: "ada@example.com", callbackUrl: "/" }),
    );
    expect(sent.status).toBe(302);
    const link = await auth.mail.linkFor("ada@example.com", /sign in to Vigil/i);
    const linkToken = new URL(link).searchParams.get("token")!;
    const [stored] = await auth.db.db.select().from(verificationToken);
    expect(stored!.token).not.toBe(linkToken);
    expect(stored!.token).not.toContain(linkToken);

    const signedIn = await call("GET", link.replace(/^https?:\/\/[^/]+/, ""), csrfCookie);
    expect(signedIn.status).toBe(302);
    const cookie = cookiesOf(signedIn)["authjs.session-token"]!;
    const token = cookie.split("=")[1]!;
    expect(await sessionUser(cookie)).toBe("ada@example.com");

    const rows = await auth.db.db.select().from(session);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sessionToken).not.toBe(token);
    expect(await sessionUser(`authjs.session-token=${rows[0]!.sessionToken}`)).toBeNull();

    // Signing out ends the stored session.
    const out = await call("POST", "/api/auth/signout", `${cookie}; ${csrfCookie}`, new URLSearchParams({ csrfToken }));
    expect(out.status).toBe(302);
    expect(await auth.db.db.select().from(session)).toHaveLength(0);
    expect(await sessionUser(cookie)).toBeNull();
  });
});
