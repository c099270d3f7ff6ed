// What an attacker tries against sign-in on the real dashboard (`next start`, sqld, a loopback mail API,
// Chromium): a forged host in the link, a redirect off the dashboard, framing its buttons.
import { randomBytes } from "node:crypto";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { startNextApp } from "@vigil/testing/next";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  freePort,
  launchChromium,
  mailSignInEnv,
  spawnDashboard,
  startMailApi,
  until,
} from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let browser: Browser;
const secret = randomBytes(32).toString("base64url");

beforeAll(async () => {
  const [, database, mailApi] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi()]);
  db = database;
  mail = mailApi;
  // As compose runs it: AUTH_URL left empty, DASHBOARD_URL set.
  [dash, browser] = await Promise.all([
    startNextApp("dashboard", (url) => ({
      DASHBOARD_URL: url,
      AUTH_URL: "",
      DATABASE_URL: db.url,
      ...mailSignInEnv(mail, secret),
      LOG_LEVEL: "warn",
    })),
    launchChromium(),
  ]);
}, 900_000);
afterAll(async () => {
  await browser?.close();
  await dash?.stop();
  await mail?.close();
  await db?.close();
});

describe("sign-in that cannot be redirected", () => {
  it("a sign-in request with a forged X-Forwarded-Host mails a link to the configured host", { timeout: 120_000 }, async () => {
    // The form's own request, as the browser sends it, kept rather than sent...
    const page = await browser.newPage();
    let sent: { headers: Record<string, string>; body: Buffer } | undefined;
    await page.route(`${dash.url}/signin`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      sent = { headers: await route.request().allHeaders(), body: route.request().postDataBuffer()! };
      await route.abort();
    });
    await page.goto(`${dash.url}/signin`);
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const form = await until("the sign-in POST", () => sent);
    await page.close();
    // ...then sent by the attacker with their host in X-Forwarded-Host and, to match it, in Origin.
    const { host: _h, "content-length": _l, connection: _c, ...headers } = form.headers;
    const res = await fetch(`${dash.url}/signin`, {
      method: "POST",
      headers: { ...headers, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", origin: "https://evil.example" },
      body: new Uint8Array(form.body),
    });
    expect(res.status).toBeLessThan(500);
    const link = await mail.linkFor("owner@example.com", /sign in to Vigil/i);
    expect(new URL(link).origin).toBe(dash.url);
    expect(new URL(new URL(link).searchParams.get("callbackUrl")!, dash.url).origin).toBe(dash.url);
  });

  it("a callbackUrl to another origin lands on the dashboard", { timeout: 120_000 }, async () => {
    const ctx = await browser.newContext();
    const req = ctx.request;
    const { csrfToken } = (await (await req.get(`${dash.url}/api/auth/csrf`)).json()) as { csrfToken: string };
    const before = mail.mails.length;
    const sent = await req.post(`${dash.url}/api/auth/signin/email`, {
      form: { csrfToken, email: "ada@example.com", callbackUrl: "https://x//evil.com/" },
      headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
    const link = await mail.linkFor("ada@example.com", /sign in to Vigil/i, before);
    // Next's request URLs write a loopback address as "localhost": the same dashboard, its cookies apart.
    const home = new URL(link).origin;
    expect(home).toBe(dash.url.replace("127.0.0.1", "localhost"));
    // The link itself, then the page that sends a signed-in visitor on: neither leaves the dashboard.
    const signedIn = await req.get(link, { maxRedirects: 0 });
    expect(signedIn.status()).toBe(302);
    expect(new URL(signedIn.headers().location!, home).origin).toBe(home);
    const page = await ctx.newPage();
    for (const target of ["/%5Cevil.com", "https://x//evil.com/", "//evil.com", "/%09/evil.com", "https://evil.com/"]) {
      await page.goto(`${home}/signin?callbackUrl=${target}`).catch(() => undefined);
      await page.waitForURL((u) => u.pathname !== "/signin").catch(() => undefined);
      expect(new URL(page.url()).origin, target).toBe(home);
      expect(new URL(page.url()).pathname, target).toMatch(/^\/w\/\d+$/);
    }
    await ctx.close();
  });

  it("the dashboard cannot be framed, and sends nosniff and a referrer policy", { timeout: 120_000 }, async () => {
    for (const path of ["/signin", "/api/auth/csrf", "/healthz"]) {
      const res = await fetch(`${dash.url}${path}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
    // An attacker's page framing the sign-in form: the browser shows nothing of it.
    const page = await browser.newPage();
    await page.setContent(`<iframe src="${dash.url}/signin" width="600" height="600"></iframe>`);
    await page.waitForTimeout(2000);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(
      await frame
        ?.locator("input[name=email]")
        .count()
        .catch(() => 0),
    ).toBe(0);
    await page.close();
  });

  it("one client with no proxy in front cannot mail sign-in links to many addresses", { timeout: 120_000 }, async () => {
    // Auth.js's own e-mail sign-in, as a script would drive it: a CSRF token and its cookie, then one POST per address.
    const csrf = await fetch(`${dash.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const mailsBefore = mail.mails.length;
    let refused: string | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await fetch(`${dash.url}/api/auth/signin/email`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ email: `victim${i}@example.com`, csrfToken, callbackUrl: "/" }),
      });
      const location = res.headers.get("location") ?? "";
      if (location.includes("RateLimited")) refused = location;
    }
    // The socket's address counts, though nothing names a proxy: at most 20 an hour, then the wait is named.
    expect(refused).toMatch(/rule=signin-client&wait=\d+/);
    expect(mail.mails.length - mailsBefore).toBeLessThanOrEqual(20);
  });

  it("in production a dashboard without AUTH_URL or DASHBOARD_URL stops at start with one line naming AUTH_URL", {
    timeout: 120_000,
  }, async () => {
    const proc = spawnDashboard(await freePort(), { DATABASE_URL: db.url, AUTH_SECRET: secret });
    const code = await Promise.race([proc.exit, new Promise((r) => setTimeout(() => r("running"), 60_000))]);
    expect(code).toBe(1);
    expect(proc.log).toContain("dashboard: invalid environment: AUTH_URL is required in production");
  });
});
