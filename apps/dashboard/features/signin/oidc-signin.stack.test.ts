// Single sign-on against a real OpenID Connect provider (the `oidc-provider` package on loopback), through the
// real dashboard (next start, sqld, Chromium): the domain rule places a company's people in its workspace as
// viewers, and a login whose e-mail the provider has not verified is refused with a message.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createWorkspace, setLimits } from "@vigil/core";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import Provider from "oidc-provider";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard, type Dashboard, freePort, launchChromium, shot, startDashboard } from "../../src/testing";

let db: TestDatabase;
let dash: Dashboard;
let browser: Browser;
let idp: Server;
let acme: number;

beforeAll(async () => {
  const [, database, idpPort] = await Promise.all([buildDashboard(), startTestDatabase(), freePort()]);
  db = database;
  acme = (await createWorkspace(db.db, { name: "Acme Corp" }, "operator")).id;
  await setLimits(db.db, acme, "unlimited", "operator");
  const issuer = `http://127.0.0.1:${idpPort}`;
  [dash, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "warn",
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_ID: "vigil-dashboard",
      AUTH_OIDC_SECRET: "oidc-client-secret-0123456789",
      AUTH_OIDC_NAME: "Acme SSO",
      AUTH_OIDC_DOMAIN_RULES: `acme.test=${acme}:viewer`,
    }),
    launchChromium(),
  ]);
  // The identity provider: any login name is an account whose e-mail is that name; names starting
  // "unverified" have an e-mail the provider never verified.
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "vigil-dashboard",
        client_secret: "oidc-client-secret-0123456789",
        redirect_uris: [`${dash.url}/api/auth/callback/oidc`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith("unverified"), name: id.split("@")[0] }),
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(16).toString("hex")] },
    features: { devInteractions: { enabled: true } },
    // No consent screen: the dashboard is this provider's own client.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  idp = createServer(provider.callback());
  await new Promise<void>((r) => idp.listen(idpPort, "127.0.0.1", r));
}, 600_000);

afterAll(async () => {
  idp?.closeAllConnections();
  idp?.close();
  await browser?.close();
  await dash?.stop();
  await db?.close();
});

/** "Continue with Acme SSO", then the provider's login form. */
async function ssoLogin(login: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${dash.url}/signin`);
  await page.getByRole("button", { name: "Continue with Acme SSO" }).click();
  await page.waitForURL((u) => !u.href.startsWith(dash.url));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.href.startsWith(dash.url));
  return page;
}

const userCount = async (email: string) =>
  Number((await db.db.$client.execute({ sql: "SELECT count(*) AS n FROM user WHERE email = ?", args: [email] })).rows[0]!.n);

describe("single sign-on (OpenID Connect)", () => {
  it("a company address signs in through the provider and lands in the company's workspace as a viewer", { timeout: 180_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${dash.url}/signin`);
    await page.getByRole("button", { name: "Continue with Acme SSO" }).waitFor();
    await shot(page, "signin-sso");

    const ana = await ssoLogin("ana@acme.test");
    await ana.waitForURL(new RegExp(`/w/${acme}$`));
    await ana.getByTestId("viewer-banner").waitFor();
    await shot(ana, "sso-viewer-landed");
    const { rows } = await db.db.$client.execute({
      sql: "SELECT m.role, m.workspace_id FROM workspace_member m JOIN user u ON u.id = m.user_id WHERE u.email = ?",
      args: ["ana@acme.test"],
    });
    // Only the company's workspace: no workspace of her own was made.
    expect(rows.map((r) => [Number(r.workspace_id), r.role])).toEqual([[acme, "viewer"]]);
    const audit = await db.db.$client.execute({
      sql: "SELECT metadata FROM audit_log WHERE workspace_id = ? AND action = 'member.join'",
      args: [acme],
    });
    expect(JSON.parse(String(audit.rows[0]!.metadata))).toMatchObject({ email: "ana@acme.test", role: "viewer" });

    // Someone of another domain signs in too, into a workspace of their own.
    const carl = await ssoLogin("carl@elsewhere.test");
    await carl.waitForURL(/\/w\/\d+$/);
    expect(carl.url()).not.toMatch(new RegExp(`/w/${acme}$`));
  });

  it("a login whose e-mail the provider has not verified is refused with a message, and no account is made", {
    timeout: 120_000,
  }, async () => {
    const page = await ssoLogin("unverified-bob@acme.test");
    await page.waitForURL(/\/signin\?error=EmailUnverified/);
    await page.getByText("your identity provider has not verified your e-mail address").waitFor();
    await shot(page, "sso-unverified-refused");
    expect(await userCount("unverified-bob@acme.test")).toBe(0);
  });
});
