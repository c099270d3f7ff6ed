// OAuth sign-in through the dashboard's own Auth.js handlers (no browser, no Next build) against a loopback
// GitHub Enterprise double: what the provider has not verified does not sign in, and AUTH_SECRET rotates
// without breaking a sign-in under way.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { user } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { startMailApi } from "@vigil/testing";
import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH_BASE as BASE, callAuth as call, cookiesOf } from "./auth-requests";

const OLD = "rotation-old-secret-0123456789";
const NEW = "rotation-new-secret-9876543210";
let t: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let github: Server;

/** What the GitHub double answers for the signed-in account. */
const account = { email: null as string | null, emails: [] as { email: string; primary: boolean; verified: boolean }[] };

beforeAll(async () => {
  t = await startTestDatabase();
  mail = await startMailApi();
  github = createServer((req, res) => {
    const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/login/oauth/access_token")
      return json({ access_token: "gho_test", token_type: "bearer", scope: "read:user,user:email" });
    if (req.url === "/api/v3/user") return json({ id: 4242, login: "mallory", name: "Mallory", email: account.email, avatar_url: null });
    if (req.url === "/api/v3/user/emails") return json(account.emails);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => github.listen(0, "127.0.0.1", r));
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    AUTH_URL: BASE,
    AUTH_GITHUB_ID: "gh-client",
    AUTH_GITHUB_SECRET: "gh-client-secret",
    AUTH_GITHUB_ENTERPRISE_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
    EMAIL_PROVIDER_API_URL: mail.url,
    EMAIL_PROVIDER_API_KEY: "re_test",
    EMAIL_FROM: "Vigil <signin@example.com>",
    LOG_LEVEL: "silent",
    // Sign-up rules are not what this file tests: once the first test's account exists, others may still sign up.
    VIGIL_SIGNUP: "open",
  });
});
afterAll(async () => {
  github?.closeAllConnections();
  github?.close();
  await mail?.close();
  await t?.close();
});

type Handlers = typeof import("../../auth").handlers;

/** The dashboard's handlers as they start with these secrets (a restart after changing them). */
async function dashboardWith(secrets: Record<string, string | undefined>): Promise<Handlers> {
  for (const k of ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"]) delete process.env[k];
  Object.assign(process.env, secrets);
  vi.resetModules();
  return (await import("../../auth")).handlers;
}

/** Starts "Continue with GitHub": the cookies Auth.js sealed and the state GitHub would send back. */
async function startGitHub(h: Handlers) {
  const csrf = await call(h, "GET", "/api/auth/csrf", "");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await call(
    h,
    "POST",
    "/api/auth/signin/github",
    cookiesOf(csrf)["authjs.csrf-token"]!,
    new URLSearchParams({ csrfToken, callbackUrl: "/" }),
  );
  expect(res.status).toBe(302);
  const state = new URL(res.headers.get("location")!).searchParams.get("state")!;
  return { state, cookies: cookiesOf(res) };
}

/** GitHub sends the browser back; where it lands and whether it now has a session. */
async function finishGitHub(h: Handlers, started: Awaited<ReturnType<typeof startGitHub>>) {
  const cookie = Object.values(started.cookies).join("; ");
  const res = await call(h, "GET", `/api/auth/callback/github?code=the-code&state=${started.state}`, cookie);
  return { location: res.headers.get("location") ?? "", session: cookiesOf(res)["authjs.session-token"] };
}

describe("OAuth sign-in", () => {
  it("an OAuth profile with an unverified e-mail is refused", async () => {
    const h = await dashboardWith({ AUTH_SECRET: OLD });
    // GitHub keeps an address the account never proved: the victim's. No public profile address.
    account.email = null;
    account.emails = [{ email: "victim@example.com", primary: true, verified: false }];
    const refused = await finishGitHub(h, await startGitHub(h));
    expect(refused.location).toMatch(/\/signin\?error=EmailUnverified/);
    expect(refused.session).toBeUndefined();
    expect((await t.db.select().from(user)).map((u) => u.email)).not.toContain("victim@example.com");

    // A public profile address is not proof either: only GitHub's verified primary signs in.
    account.email = "victim@example.com";
    account.emails = [
      { email: "victim@example.com", primary: false, verified: false },
      { email: "mallory@example.com", primary: true, verified: true },
    ];
    const ok = await finishGitHub(h, await startGitHub(h));
    expect(ok.location).toBe("/");
    expect(ok.session).toBeDefined();
    expect((await t.db.select().from(user)).map((u) => u.email)).toEqual(["mallory@example.com"]);
  });

  it("a sign-in started before AUTH_SECRET rotation still completes, and what is sealed after it uses the new secret", async () => {
    account.email = null;
    account.emails = [{ email: "mallory@example.com", primary: true, verified: true }];
    const before = await dashboardWith({ AUTH_SECRET: OLD });
    const startedBefore = await startGitHub(before);
    const csrf = await call(before, "GET", "/api/auth/csrf", "");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const sent = await call(
      before,
      "POST",
      "/api/auth/signin/email",
      cookiesOf(csrf)["authjs.csrf-token"]!,
      new URLSearchParams({ csrfToken, email: "ada@example.com", callbackUrl: "/" }),
    );
    expect(sent.status).toBe(302);
    const link = await mail.linkFor("ada@example.com", /sign in to Vigil/i);

    // Step 1: the new secret is added; the old one stays to verify.
    const during = await dashboardWith({ AUTH_SECRET: OLD, AUTH_SECRET_1: NEW });
    expect((await finishGitHub(during, startedBefore)).session).toBeDefined();
    const signedIn = await call(during, "GET", link.replace(/^https?:\/\/[^/]+/, ""), "");
    expect(signedIn.headers.get("location")).toBe("/");
    expect(cookiesOf(signedIn)["authjs.session-token"]).toBeDefined();
    const startedDuring = await startGitHub(during);
    const pkce = "authjs.pkce.code_verifier";
    const sealed = startedDuring.cookies[pkce]!.split("=").slice(1).join("=");
    expect(await decode({ token: sealed, secret: NEW, salt: pkce })).toMatchObject({ value: expect.any(String) });

    // Step 2: the new secret alone; what step 1 sealed still opens.
    const after = await dashboardWith({ AUTH_SECRET: NEW });
    expect((await finishGitHub(after, startedDuring)).session).toBeDefined();
  });
});
