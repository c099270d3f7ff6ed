// Real processes for the dashboard's browser tests: one `next build` per source tree, `next start`
// on a free port, a loopback email API that keeps what the dashboard sends, and Chromium.

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMonitor, createWorkspace, setLimits } from "@vigil/core";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { freePort, type Proc, startMailApi, untilHealthy } from "@vigil/testing";
import { launchChromium, screenshot } from "@vigil/testing/browser";
import { buildNextApp, type NextApp, spawnNextApp, startNextApp } from "@vigil/testing/next";
import { serviceBundle, spawnService } from "@vigil/testing/service";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

export { freePort, type Mail, Proc, startMailApi, until } from "@vigil/testing";
export { launchChromium } from "@vigil/testing/browser";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const APP = join(ROOT, "apps/dashboard");

/** `next build` once per source tree: test files (and runs) share it. */
export const buildDashboard = () => buildNextApp("dashboard");

export type Dashboard = NextApp;

/** Spawns `next start` with exactly `env` (plus PATH/HOME); does not wait. */
/**
 * Tests of other features sign several people in: sign-up is open unless a test sets VIGIL_SIGNUP itself
 * (a new instance's own default is closed once its first user exists).
 */
const OPEN_SIGNUP = { VIGIL_SIGNUP: "open" };

export const spawnDashboard = (port: number, env: Record<string, string>): Proc =>
  spawnNextApp("dashboard", port, { ...OPEN_SIGNUP, ...env });

export const startDashboard = (env: Record<string, string>): Promise<Dashboard> =>
  startNextApp("dashboard", (url) => ({ AUTH_URL: url, ...OPEN_SIGNUP, ...env }));

/**
 * sqld, the mail API, the dashboard signing in by mail, the public status-page app beside it on
 * `siteHost` (the dashboard links each page there) reading the same database, and Chromium.
 */
export async function startDashboardWithSite(secret: string, siteHost = "127.0.0.1") {
  const [, , db, mail] = await Promise.all([buildDashboard(), buildNextApp("status-page"), startTestDatabase(), startMailApi()]);
  const sitePort = await freePort();
  const [dash, site, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      ...mailSignInEnv(mail, secret),
      LOG_LEVEL: "warn",
      STATUS_PAGE_URL: `http://${siteHost}:${sitePort}`,
    }),
    startNextApp("status-page", () => ({ DATABASE_URL: db.url, AUTH_SECRET: secret }), sitePort),
    launchChromium(),
  ]);
  return { db, mail, dash, site, browser };
}

/**
 * A service of the repo as one process: `apps/<app>/src/main.ts` runs from its production bundle (built by the
 * stack project's globalSetup); any other entry runs as source through tsx.
 */
export async function startService(entry: string, env: Record<string, string>, healthPort?: number): Promise<Proc> {
  const app = /^apps\/([\w-]+)\/src\/main\.ts$/.exec(entry)?.[1];
  const proc = await spawnService(
    app ? { name: app, entry: serviceBundle(app), env } : { name: entry, entry, nodeArgs: ["--import", "tsx"], env },
    false,
  );
  return healthPort ? healthy(proc, healthPort, entry) : proc;
}

/** Waits for a started service's /healthz; a loaded machine (a build next door) can take a while. */
export async function healthy(proc: Proc, port: number, what = `service on :${port}`, timeoutMs = 120_000): Promise<Proc> {
  await untilHealthy(what, `http://127.0.0.1:${port}/healthz`, proc, timeoutMs);
  return proc;
}

/** A real private-location probe for the location whose key is `key`, polling `serverUrl`. */
export async function startProbe(key: string, serverUrl: string, dataDir: string): Promise<Proc> {
  const port = await freePort();
  const env = { SERVICE_KEY: key, SERVICE_INGEST_URL: serverUrl, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
  return startService("apps/private-location/src/main.ts", { ...env, PROBE_DATA_DIR: dataDir, PROBE_WAIT_MS: "2000" }, port);
}

/** Full-page screenshot under docs/screenshots/dashboard-<name>.png */
export const shot = (page: Page, name: string) => screenshot(page, `dashboard-${name}`);

/** Signs in through the form and the link the mail API received; returns the link. */
export async function signInByMail(
  page: Page,
  mail: Awaited<ReturnType<typeof startMailApi>>,
  base: string,
  email: string,
  start = "/signin",
) {
  const before = mail.mails.length;
  await page.goto(base + start);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check/);
  const link = await mail.linkFor(email, /sign in to Vigil/i, before);
  await page.goto(link);
  return link;
}

/** The dashboard's server actions from its build manifest: name, id and a page that serves it. */
export function serverActions(): { name: string; id: string; page: string }[] {
  const manifest = JSON.parse(readFileSync(join(APP, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName: string; workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, a]) => ({ name: a.exportedName, id, page: Object.keys(a.workers)[0]! }));
}

/** Posts a server action the way React's client does (`[prevState, formData]`), with the context's cookies. */
export async function callAction(
  base: string,
  ctx: BrowserContext,
  action: { id: string; page: string },
  path: string,
  fields: Record<string, string>,
) {
  const body = new FormData();
  // React's client prefixes the form's fields with the reference's part id ("_1_" from a form, "1_" from code).
  for (const [k, v] of Object.entries(fields)) {
    body.append(`1_${k}`, v);
    body.append(`_1_${k}`, v);
  }
  // The root goes last: the server resolves the form reference as soon as it reads it.
  body.append("0", JSON.stringify([{}, "$K1"]));
  const cookie = (await ctx.cookies(base)).map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "next-action": action.id, accept: "text/x-component", cookie, origin: base },
    body,
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

/** A dashboard's sign-in by mail through the mail API double, with a fresh AUTH_SECRET unless one is given. */
export const mailSignInEnv = (mail: { url: string }, secret = randomBytes(32).toString("base64url")) => ({
  AUTH_SECRET: secret,
  EMAIL_PROVIDER_API_URL: mail.url,
  EMAIL_PROVIDER_API_KEY: "re_test_key",
  EMAIL_FROM: "Vigil <signin@vigil.test>",
});

/** One signed-in-by-mail dashboard on its own database, with a mail API double and Chromium; `close` stops all. */
export async function startMailDashboard() {
  const [, db, mail] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi()]);
  const [dash, browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      ...mailSignInEnv(mail),
      LOG_LEVEL: "warn",
    }),
    launchChromium(),
  ]);
  const close = async () => {
    await browser.close();
    await dash.stop();
    await mail.close();
    await db.close();
  };
  /** A person signed in by mail in a fresh browser context, on the workspace page sign-in lands on. */
  const signIn = async (email: string, viewport = { width: 1280, height: 900 }) => {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    await signInByMail(page, mail, dash.url, email);
    await page.waitForURL(/\/w\/\d+/);
    return { ctx, page, ws: Number(/\/w\/(\d+)/.exec(page.url())![1]) };
  };
  return { db, mail, dash, browser, close, signIn };
}

export type MailDashboard = Awaited<ReturnType<typeof startMailDashboard>>;

/**
 * startMailDashboard for a whole test file: started in beforeAll, stopped in afterAll. Its fields are there
 * once beforeAll ran: read them inside hooks and tests.
 */
export function mailDashboardFixture(): MailDashboard {
  const stack = {} as MailDashboard;
  beforeAll(async () => {
    Object.assign(stack, await startMailDashboard());
  }, 600_000);
  afterAll(async () => {
    await stack.close?.();
  });
  return stack;
}

/**
 * Another workspace (limits unlimited) with one monitor of its own, both made by `actor`: what the tested
 * workspace's people must never reach.
 */
export async function otherWorkspaceWithMonitor(
  db: TestDatabase["db"],
  name: string,
  monitor: Parameters<typeof createMonitor>[2],
  actor: string,
) {
  const other = await createWorkspace(db, { name }, actor);
  await setLimits(db, other.id, "unlimited", "operator");
  return { other, theirs: await createMonitor(db, other.id, monitor, actor) };
}
