// Over 300 lines: the walk through the whole product on one set of processes; splitting would start them again.
// The dashboard in Chromium against real processes: sqld, `next start`, the API server, a probe and
// the CLI. One `next build` serves every browser test (see buildDashboard).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acceptInvitation, createPrivateLocation, createWorkspace, inviteMember, setLimits } from "@vigil/core";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { metricsHeaders } from "@vigil/testing";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  launchChromium,
  mailSignInEnv,
  type Proc,
  ROOT,
  shot,
  signInByMail,
  spawnDashboard,
  startDashboard,
  startMailApi,
  startProbe,
  startService,
  until,
} from "../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let server: Proc;
let serverUrl: string;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), "vigil-dashboard-"));
const extra: Proc[] = [];
const secret = randomBytes(32).toString("base64url");

beforeAll(async () => {
  const [, database, mailApi] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi()]);
  db = database;
  mail = mailApi;
  const serverPort = await freePort();
  serverUrl = `http://127.0.0.1:${serverPort}`;
  [dash, server, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      ...mailSignInEnv(mail, secret),
      PUBLIC_INGEST_URL: serverUrl,
      LOG_LEVEL: "info",
    }),
    startService(
      "apps/server/src/main.ts",
      {
        DATABASE_URL: db.url,
        PORT: String(serverPort),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        QUEUE_PREFIX: `dash-${randomBytes(3).toString("hex")}`,
        PROBE_WAIT_MS: "2000",
      },
      serverPort,
    ),
    launchChromium(),
  ]);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([dash?.stop(), server?.stop(), ...extra.map((p) => p.stop())]);
  await mail?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const desktop = () => browser.newContext({ viewport: { width: 1280, height: 800 } });

/** Signs in through the form and the link from the mail; returns the page where the link lands. */
const signIn = (page: Page, email: string, base = dash.url, start = "/signin") => signInByMail(page, mail, base, email, start);

/** The operator's interface: sqld's own `POST /` with statements. */
async function operator(statement: string) {
  const res = await fetch(`${db.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ statements: [statement] }),
  });
  expect(res.status).toBe(200);
}

function runCli(token: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "apps/cli/src/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, VIGIL_API_URL: serverUrl, VIGIL_API_TOKEN: token, VIGIL_CONFIG: join(dir, "cli.json") },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

/** The rendered text, as a person reads it (cells separated by whitespace). */
async function textOf(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM property
  return (await locator.innerText()).trim();
}

/** Waits (bounded) for the locator to be visible. */
async function visible(locator: Locator, timeout = 10_000) {
  await locator.first().waitFor({ state: "visible", timeout });
}

/** Waits (bounded) for the locator's text to match. */
async function hasText(locator: Locator, pattern: RegExp | string, timeout = 10_000) {
  await visible(locator, timeout);
  const deadline = Date.now() + timeout;
  let text = "";
  while (Date.now() < deadline) {
    text = await textOf(locator.first());
    if (typeof pattern === "string" ? text === pattern : pattern.test(text)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected text ${pattern}, got "${text}"`);
}

const wsIdOf = (page: Page) => Number(/\/w\/(\d+)/.exec(page.url())![1]);

let ana: { ctx: BrowserContext; page: Page; ws: number };

describe("signing in", () => {
  it("a magic link signs in, creates the user and a restricted workspace they own; the used link says so and offers a new one", {
    timeout: 120_000,
  }, async () => {
    const ctx = await desktop();
    const page = await ctx.newPage();
    await page.goto(`${dash.url}/w/1`);
    await page.waitForURL(/\/signin/);
    await shot(page, "signin");
    // Bad input: the rule is named beside the field, nothing is sent.
    const sent = mail.mails.length;
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await visible(page.getByText("Email must be an email address such as ana@example.com"));
    expect(mail.mails.length).toBe(sent);

    const link = await signIn(page, "ana@example.com");
    await page.waitForURL(/\/w\/\d+$/);
    const m = mail.mails.at(-1)!;
    expect(m).toMatchObject({
      from: "Vigil <signin@vigil.test>",
      to: ["ana@example.com"],
      subject: "Sign in to Vigil",
      auth: "Bearer re_test_key",
    });
    await hasText(page.getByRole("heading", { level: 1 }), "ana's workspace");
    await visible(page.getByText("you are owner"));
    ana = { ctx, page, ws: wsIdOf(page) };
    await shot(page, "overview");

    // The same link again, in a fresh browser: used, so it says so and offers a new one.
    const other = await desktop();
    const p2 = await other.newPage();
    await p2.goto(link);
    await p2.waitForURL(/\/signin\?.*error=Verification/);
    await visible(p2.getByText("This sign-in link has expired or was already used"));
    await visible(p2.getByRole("button", { name: "Email me a sign-in link" }));
    await shot(p2, "signin-link-used");
    await other.close();
  });
});

describe("limits", () => {
  it("the restricted banner shows on every page until the operator sets limits through the database endpoint", {
    timeout: 120_000,
  }, async () => {
    const { page, ws } = ana;
    for (const path of ["", "/monitors", "/locations", "/api-keys", "/members", "/settings", "/audit-log"]) {
      await page.goto(`${dash.url}/w/${ws}${path}`);
      await visible(page.getByTestId("restricted-banner"));
    }
    // Restricted: no private locations, and the refusal names the key.
    await page.goto(`${dash.url}/w/${ws}/locations`);
    await page.getByLabel("Name").fill("rack-1");
    await page.getByRole("button", { name: "Create location" }).click();
    await visible(page.getByText("private-locations: this feature is not enabled"));
    await shot(page, "locations-restricted");
    // The members limit (1) refuses the invitation, naming the key.
    await page.goto(`${dash.url}/w/${ws}/members`);
    await page.getByLabel("Email").fill("bob@example.com");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await visible(page.getByText("members: the limit is 1, this would make 2"));

    const limits = JSON.stringify({ monitors: 10, members: 3, "private-locations": true, "audit-log": true }).replaceAll("'", "''");
    await operator(
      `UPDATE workspace SET limits = '${limits}', plan = 'team', paid_until = ${Math.floor(Date.now() / 1000) + 86_400 * 30} WHERE id = ${ws}`,
    );
    await page.goto(`${dash.url}/w/${ws}/settings`);
    await visible(page.getByRole("heading", { name: "Limits in force" }));
    expect(await page.getByTestId("restricted-banner").count()).toBe(0);
    await hasText(page.locator("tr", { hasText: "members" }).locator("td").last(), "3");
    await shot(page, "settings");
  });
});

describe("members", () => {
  it("a second user invited by email accepts and joins as member, and a member is refused the pages that need admin", {
    timeout: 120_000,
  }, async () => {
    const { page, ws } = ana;
    const before = mail.mails.length;
    await page.goto(`${dash.url}/w/${ws}/members`);
    await page.getByLabel("Email").fill("Bob@Example.com");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await visible(page.getByText("Invitation sent to bob@example.com."));
    const invite = await mail.linkFor("bob@example.com", /invited you/, before);
    expect(invite).toMatch(new RegExp(`^${dash.url}/invite/vgl_inv_`));
    await page.reload();
    await shot(page, "members");

    const ctx = await desktop();
    const p = await ctx.newPage();
    await p.goto(invite);
    await visible(p.getByText("Join “ana's workspace”"));
    await p.getByRole("link", { name: "Sign in to accept" }).click();
    await p.waitForURL(/\/signin\?callbackUrl=/);
    await signIn(p, "bob@example.com", dash.url, new URL(p.url()).pathname + new URL(p.url()).search);
    await p.waitForURL(/\/invite\//);
    await shot(p, "invite");
    await p.getByRole("button", { name: "Accept invitation" }).click();
    await p.waitForURL(new RegExp(`/w/${ws}$`));
    await visible(p.getByText("you are member"));

    for (const path of ["/api-keys", "/locations"]) {
      await p.goto(`${dash.url}/w/${ws}${path}`);
      await visible(p.getByTestId("needs-admin"));
      expect(await p.getByRole("button", { name: /Create/ }).count()).toBe(0);
    }
    await shot(p, "member-refused");
    // The invitation link works once.
    await p.goto(invite);
    await visible(p.getByText("This invitation was already used."));
  });
});

describe("workspaces", () => {
  it("another workspace's id in a URL answers 404, and a user in two workspaces switches between them", { timeout: 120_000 }, async () => {
    const other = await createWorkspace(db.db, { name: "Someone else" }, "operator");
    await setLimits(db.db, other.id, "team", "operator");
    const { location } = await createPrivateLocation(db.db, other.id, { name: "theirs", region: "ams" }, "operator");
    const { page, ws } = ana;
    for (const path of [
      `/w/${other.id}`,
      `/w/${other.id}/locations`,
      `/w/${ws}/locations/${location.id}`,
      `/w/${ws}/locations/abc`,
      "/w/999999",
    ]) {
      const res = await page.goto(`${dash.url}${path}`);
      expect(res?.status(), path).toBe(404);
      await visible(page.getByRole("heading", { name: "Not found" }));
    }
    await shot(page, "not-found");

    // A tampered form (another workspace's id in the hidden field) answers not found and writes nothing.
    await page.goto(`${dash.url}/w/${ws}/api-keys`);
    await page
      .locator('input[name="workspaceId"]')
      .first()
      .evaluate((el, id) => {
        (el as HTMLInputElement).value = String(id);
      }, other.id);
    await page.getByLabel("Name").fill("sneaky");
    await page.getByRole("button", { name: "Create key" }).click();
    await visible(page.getByRole("heading", { name: "Not found" }));
    const keys = await db.db.$client.execute({ sql: "SELECT count(*) FROM api_key WHERE name = 'sneaky'", args: [] });
    expect(Number(keys.rows[0]![0])).toBe(0);

    // Invited into a second workspace, Ana switches to it from the menu.
    const rows = await db.db.$client.execute({ sql: "SELECT id FROM user WHERE email = ?", args: ["ana@example.com"] });
    const anaUser = { id: String(rows.rows[0]![0]), email: "ana@example.com" };
    const { token } = await inviteMember(db.db, other.id, { email: anaUser.email, role: "admin" }, "operator");
    await acceptInvitation(db.db, token, anaUser);
    await page.goto(`${dash.url}/w/${ws}`);
    await page.getByRole("button", { name: "Switch workspace" }).click();
    await shot(page, "switcher");
    await page.getByRole("menuitem", { name: /Someone else/ }).click();
    await page.waitForURL(new RegExp(`/w/${other.id}$`));
    await hasText(page.getByRole("heading", { level: 1 }), "Someone else");
    await visible(page.getByText("you are admin"));
  });
});

describe("private locations", () => {
  it("a location created in the dashboard shows online once a real probe starts with the key shown", { timeout: 120_000 }, async () => {
    const { page, ws } = ana;
    await page.goto(`${dash.url}/w/${ws}/locations`);
    // Bad input: the field names the rule, nothing is created.
    await page.getByRole("button", { name: "Create location" }).click();
    await visible(page.getByText("Name must not be empty"));
    await page.getByLabel("Name").fill("office-rack-1");
    await page.getByLabel("Region").selectOption("fra");
    await page.getByRole("button", { name: "Create location" }).click();
    const dialog = page.getByRole("dialog");
    await visible(dialog.getByText("docker run"));
    const key = await textOf(dialog.getByTestId("secret"));
    expect(key).toMatch(/^vgl_loc_/);
    const snippets = await dialog.locator("pre").allInnerTexts();
    expect(snippets.join("\n")).toContain(`SERVICE_INGEST_URL=${serverUrl}`);
    expect(snippets.join("\n")).toContain(`SERVICE_KEY: ${key}`);
    await shot(page, "location-created");
    await page.keyboard.press("Escape");
    await hasText(page.locator("tr", { hasText: "office-rack-1" }), /Frankfurt \(fra\)\s+offline\s+never/);

    extra.push(await startProbe(key, serverUrl, join(dir, "probe")));
    await until(
      "the location to show online",
      async () => {
        await page.reload();
        return /online/.test(await textOf(page.locator("tr", { hasText: "office-rack-1" })));
      },
      30_000,
      1000,
    );
    await shot(page, "locations");
    await page.locator("tr", { hasText: "office-rack-1" }).getByRole("link").click();
    await visible(page.getByRole("heading", { name: "office-rack-1" }));
    await shot(page, "location");
  });
});

describe("API keys", () => {
  it("a key created in the dashboard works in the CLI, and the CLI is refused from the request after revoke", {
    timeout: 120_000,
  }, async () => {
    const { page, ws } = ana;
    await page.goto(`${dash.url}/w/${ws}/api-keys`);
    await page.getByLabel("Name").fill("CI deploy");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog");
    const key = await textOf(dialog.getByTestId("secret"));
    expect(key).toMatch(/^vgl_key_/);
    await shot(page, "api-key-created");
    await page.keyboard.press("Escape");

    const ok = await runCli(key, "whoami");
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain("ana's workspace");
    await page.reload();
    const row = page.locator("tr", { hasText: "CI deploy" });
    await shot(page, "api-keys");

    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
    await hasText(page.locator("tr", { hasText: "CI deploy" }), /revoked/);
    const refused = await runCli(key, "whoami");
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/invalid API key|unauthorized/i);
  });

  it("the audit log lists what happened, filtered by action", { timeout: 120_000 }, async () => {
    const { page, ws } = ana;
    await page.goto(`${dash.url}/w/${ws}/audit-log?action=api-key.revoke`);
    await hasText(page.locator("tbody tr"), /api-key\.revoke/);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.goto(`${dash.url}/w/${ws}/audit-log`);
    await shot(page, "audit-log");
  });

  it("the pages read well on a phone", { timeout: 120_000 }, async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await ana.ctx.storageState() });
    const p = await phone.newPage();
    await p.goto(`${dash.url}/w/${ana.ws}/locations`);
    await visible(p.getByRole("link", { name: "Private locations" }));
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(p, "phone-locations");
    await phone.close();
  });
});

describe("start-up and the embedded run", () => {
  it("missing AUTH_SECRET stops the dashboard at start with one line naming it", { timeout: 120_000 }, async () => {
    const proc = spawnDashboard(await freePort(), { DATABASE_URL: db.url });
    const code = await Promise.race([proc.exit, new Promise((r) => setTimeout(() => r("running"), 30_000))]);
    expect(code).toBe(1);
    expect(proc.log).toContain("dashboard: invalid environment: AUTH_SECRET is required but not set");
  });

  it("without a mail server outside production the link goes to the log, and the first to sign in owns the local workspace", {
    timeout: 120_000,
  }, async () => {
    const local = await createWorkspace(db.db, { name: "Local", slug: "local" }, "operator");
    await setLimits(db.db, local.id, "unlimited", "operator");
    const d = await startDashboard({
      DATABASE_URL: db.url,
      AUTH_SECRET: secret,
      NODE_ENV: "development",
      LOCAL_WORKSPACE: "local",
    });
    extra.push(d.proc);
    const ctx = await desktop();
    const page = await ctx.newPage();
    await page.goto(`${d.url}/signin`);
    await page.getByLabel("Email").fill("first@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check/);
    await visible(page.getByText("printed in the dashboard's log"));
    const link = await until("the link in the log", () => /sign-in link for first@example\.com: (\S+?)"/.exec(d.proc.log)?.[1], 10_000);
    await page.goto(link);
    await page.waitForURL(new RegExp(`/w/${local.id}$`));
    await hasText(page.getByRole("heading", { level: 1 }), "Local");
    await visible(page.getByText("you are owner"));
    await ctx.close();
    await d.stop();
  });

  it("in production without a mail server the sign-in page says email is not configured, OAuth buttons appear only when set; /healthz and /metrics answer", {
    timeout: 120_000,
  }, async () => {
    const d = await startDashboard({ DATABASE_URL: db.url, AUTH_SECRET: secret, AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" });
    extra.push(d.proc);
    const ctx = await desktop();
    const page = await ctx.newPage();
    await page.goto(`${d.url}/signin`);
    await visible(page.getByText("Email is not configured on this server"));
    expect(await page.getByLabel("Email").count()).toBe(0);
    // Only the OAuth provider whose variables are set gets a button.
    await visible(page.getByRole("button", { name: "Continue with GitHub" }));
    expect(await page.getByRole("button", { name: "Continue with Google" }).count()).toBe(0);
    await shot(page, "signin-no-email");
    await ctx.close();
    const health = await fetch(`${d.url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok", service: "dashboard" });
    // Only the operator's scraper reads the process's metrics.
    expect((await fetch(`${d.url}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${d.url}/metrics`, { headers: metricsHeaders() });
    expect(metrics.headers.get("content-type")).toContain("text/plain");
    expect(await metrics.text()).toMatch(/process_cpu_user_seconds_total\{service="dashboard"\}/);
    await d.stop();
  });
});
