// Sign-in mail as a weapon, through the dashboard's own Auth.js handlers (no browser): one address, or one
// client, cannot make the instance send mail without end, and a refused request stores nothing.
import { verificationToken } from "@vigil/db-schema";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH_BASE, authHandlersFixture } from "./auth-requests";

const auth = authHandlersFixture("sign-in-abuse-test-secret-0123456789", {
  // The dashboard sits behind a proxy on loopback: its X-Forwarded-For names the client.
  TRUSTED_PROXIES: "127.0.0.1",
});
let refusalText: typeof import("../../lib/rate-limit").refusalText;

beforeAll(async () => {
  ({ refusalText } = await import("../../lib/rate-limit"));
});

/** One sign-in request as a browser (or a script) posts it, optionally through the proxy for `client`. */
async function askForLink(email: string, client?: string) {
  const forwarded: Record<string, string> = client ? { "x-forwarded-for": client } : {};
  const csrf = await auth.handlers.GET(new NextRequest(new URL("/api/auth/csrf", AUTH_BASE), { headers: forwarded }));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const res = await auth.handlers.POST(
    new NextRequest(new URL("/api/auth/signin/email", AUTH_BASE), {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...forwarded },
      body: new URLSearchParams({ csrfToken, email, callbackUrl: "/" }),
    }),
  );
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!, AUTH_BASE);
}

const rowsFor = async (email: string) => (await auth.db.db.select().from(verificationToken)).filter((r) => r.identifier === email);
const mailsTo = (email: string) => auth.mail.mails.filter((m) => m.to.includes(email)).length;

describe("sign-in mail cannot be used to flood", () => {
  it("a sixth sign-in e-mail to one address within the hour is refused with the wait", async () => {
    const victim = "victim@example.com";
    for (let i = 0; i < 5; i++) expect((await askForLink(victim)).pathname).toBe("/api/auth/verify-request");
    expect(mailsTo(victim)).toBe(5);
    // Each new link replaced the one before: one row, not five.
    expect(await rowsFor(victim)).toHaveLength(1);
    const [kept] = await rowsFor(victim);

    const refused = await askForLink(victim);
    expect(refused.pathname).toBe("/signin");
    const text = refusalText(refused.searchParams);
    expect(text).toMatch(/^Too many sign-in e-mails for this address; try again in \d+ s\.$/);
    expect(Number(/in (\d+) s/.exec(text!)![1])).toBeGreaterThan(3500);
    // Nothing was mailed, and the link already mailed still works (its row is untouched).
    expect(mailsTo(victim)).toBe(5);
    expect(await rowsFor(victim)).toEqual([kept]);
    // Another address is not held up by it.
    expect((await askForLink("someone-else@example.com")).pathname).toBe("/api/auth/verify-request");
  });

  it("one client cannot mail many addresses", async () => {
    const attacker = "198.51.100.7";
    for (let i = 0; i < 20; i++) expect((await askForLink(`target${i}@example.com`, attacker)).pathname).toBe("/api/auth/verify-request");
    // A forged X-Forwarded-For in front of the proxy's own entry does not make a new client.
    const refused = await askForLink("target20@example.com", `203.0.113.${Math.floor(Math.random() * 200)}, ${attacker}`);
    expect(refusalText(refused.searchParams)).toMatch(/^Too many sign-in e-mails from your network address; try again in \d+ s\.$/);
    expect(mailsTo("target20@example.com")).toBe(0);
    // Someone else behind the same proxy still signs in.
    expect((await askForLink("colleague@example.com", "198.51.100.8")).pathname).toBe("/api/auth/verify-request");
  });
});
