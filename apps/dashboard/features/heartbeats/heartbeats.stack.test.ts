// Heartbeat monitors in Chromium on real processes: sqld, Redis, the API server (ping URLs), workflows
// (deadlines) and `next start`. A heartbeat is made and edited in the form, then pinged like a job would.
import { randomBytes } from "node:crypto";
import { createMonitor, createWorkspace, getMonitor, listMonitors, setLimits } from "@vigil/core";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  healthy,
  launchChromium,
  mailSignInEnv,
  type Proc,
  shot,
  signInByMail,
  startDashboard,
  startMailApi,
  startService,
  until,
} from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let browser: Browser;
let page: Page;
let ws: number;
let pingBase: string;
const procs: Proc[] = [];
const prefix = `hbdash-${randomBytes(3).toString("hex")}`;
const REDIS_URL = "redis://127.0.0.1:6379";

async function service(entry: string, env: Record<string, string>, port: number) {
  const proc = await startService(entry, env);
  procs.push(proc);
  return healthy(proc, port, `${entry} healthy`);
}

const visible = (locator: Locator, timeout = 60_000) => locator.first().waitFor({ state: "visible", timeout });

beforeAll(async () => {
  const [, database, mailApi] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi()]);
  db = database;
  mail = mailApi;
  const [serverPort, workflowsPort] = await Promise.all([freePort(), freePort()]);
  pingBase = `http://127.0.0.1:${serverPort}`;
  const common = { DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: "warn", HOST: "127.0.0.1", PING_BASE_URL: pingBase };
  [dash, , , browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      ...mailSignInEnv(mail),
      PING_BASE_URL: pingBase,
      LOG_LEVEL: "warn",
    }),
    service("apps/server/src/main.ts", { ...common, PORT: String(serverPort) }, serverPort),
    service("apps/workflows/src/main.ts", { ...common, PORT: String(workflowsPort), HEARTBEAT_TICK_MS: "500" }, workflowsPort),
    launchChromium(),
  ]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(90_000);
  await signInByMail(page, mail, dash.url, "ops@heartbeat.test");
  await page.waitForURL(/\/w\/\d+$/);
  ws = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  await setLimits(db.db, ws, "unlimited", "operator");
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await dash?.stop();
  await Promise.all(procs.map((p) => p.stop()));
  await mail?.close();
  await db?.close();
});

describe("heartbeat monitors in the dashboard", () => {
  it("a heartbeat is created and edited in the form, a bad cron is named beside its field, and no location is asked for", {
    timeout: 300_000,
  }, async () => {
    await page.goto(`${dash.url}/w/${ws}/monitors/new`);
    await page.getByText("Heartbeat", { exact: true }).click();
    expect(await page.getByText("Schedule and locations").count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill("Nightly backup");
    await page.getByText("On a cron schedule").click();
    await page.getByLabel("Cron", { exact: true }).fill("30 2 * *");
    await page.getByLabel("Time zone", { exact: true }).fill("Europe/Berlin");
    await page.getByLabel("Grace", { exact: true }).fill("15m");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await visible(page.locator("#cron-error", { hasText: "Cron is not a valid cron expression: must have 5 fields" }));
    await shot(page, "heartbeat-form-errors");
    await page.getByLabel("Cron", { exact: true }).fill("30 2 * * *");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await page.waitForURL(/\/monitors\?saved=\d+/);
    const made = (await listMonitors(db.db, ws)).find((m) => m.name === "Nightly backup")!;
    expect(made).toMatchObject({ kind: "heartbeat", request: { cron: "30 2 * * *", timezone: "Europe/Berlin", grace: 900_000 } });

    // Edited to a period: the form comes back with the cron, and the period replaces it.
    await page.goto(`${dash.url}/w/${ws}/monitors/${made.id}/edit`);
    expect(await page.getByLabel("Cron", { exact: true }).inputValue()).toBe("30 2 * * *");
    await page.getByText("Every period").click();
    await page.getByLabel("Period", { exact: true }).fill("2s");
    await page.getByLabel("Grace", { exact: true }).fill("1s");
    await shot(page, "heartbeat-form");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(/\/monitors\?saved=\d+/);
    expect((await getMonitor(db.db, ws, made.id)).request).toEqual({ period: 2000, grace: 1000 });
  });

  it("the heartbeat page shows the ping URL with snippets, each ping with its source and body, and the list says down at a glance", {
    timeout: 300_000,
  }, async () => {
    const hb = await createMonitor(
      db.db,
      ws,
      { kind: "heartbeat", name: "Invoice export", key: "invoice-export", request: { period: "1h", grace: "5m" } },
      "test",
    );
    await page.goto(`${dash.url}/w/${ws}/monitors/${hb.id}`);
    expect(await page.getByTestId("heartbeat-state").textContent()).toBe("waiting for first ping");
    expect(await page.getByTestId("monitor-health").textContent()).toBe("waiting for first ping");
    const url = (await page.getByTestId("ping-url").textContent())!;
    expect(url).toMatch(new RegExp(`^${pingBase}/ping/[A-Za-z0-9_-]{32}$`));
    await page.getByText("Snippets: curl, wget, PowerShell, systemd, Kubernetes").click();
    await visible(page.getByText(`curl -fsS -m 10 --retry 5 -o /dev/null ${url}`));
    await visible(page.getByText("Kubernetes CronJob"));

    const ua = { "user-agent": "backup-script/1.0" };
    expect((await fetch(`${url}/start`, { headers: ua })).status).toBe(200);
    expect((await fetch(url, { method: "POST", headers: ua, body: "copied 12 files" })).status).toBe(200);
    expect((await fetch(`${url}/start`, { headers: ua })).status).toBe(200);
    expect((await fetch(`${url}/3`, { method: "POST", headers: ua, body: "rsync: connection refused" })).status).toBe(200);
    await until(
      "four pings listed",
      async () => {
        await page.reload();
        return (await page.getByTestId("ping").count()) === 4;
      },
      30_000,
      1000,
    );
    const rows = page.getByTestId("ping");
    const newest = await rows.nth(0).textContent();
    for (const part of ["exit 3", "rsync: connection refused", "backup-script/1.0", "127.0.0.1"]) expect(newest).toContain(part);
    expect(await rows.nth(2).textContent()).toContain("copied 12 files");

    // Workflows turn the exit code into a down status; the page and the list say so.
    await until(
      "down",
      async () => {
        await page.reload();
        return (await page.getByTestId("heartbeat-state").textContent()) === "down";
      },
      60_000,
      1000,
    );
    await visible(page.getByText("the job exited with code 3: rsync: connection refused"));
    // One word for the state: the header says what the state card says.
    expect(await page.getByTestId("monitor-health").textContent()).toBe("down");
    expect(await page.getByText("Next ping expected").locator("..").textContent()).toMatch(/^Next ping expectedin (59 min|1 h)/);
    await shot(page, "heartbeat-page");
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    expect(await page.locator(`tr[data-monitor="${hb.id}"]`).textContent()).toContain("down");

    // Another workspace's heartbeat is not found here.
    const other = await createWorkspace(db.db, { name: "Rival" }, "test");
    const theirs = await createMonitor(db.db, other.id, { kind: "heartbeat", name: "Theirs", request: { period: "1h" } }, "test");
    const res = await page.goto(`${dash.url}/w/${ws}/monitors/${theirs.id}`);
    expect(res?.status()).toBe(404);
  });

  it("an admin makes the workspace ping key in settings; the heartbeat page shows its URL by name, which a script pings", {
    timeout: 300_000,
  }, async () => {
    const hb = await createMonitor(
      db.db,
      ws,
      { kind: "heartbeat", name: "Log rotation", key: "log rotation", request: { period: "1h" } },
      "test",
    );
    await page.goto(`${dash.url}/w/${ws}/settings`);
    await visible(page.getByText("No ping key yet: heartbeats answer only on their own URLs."));
    await page.getByRole("button", { name: "Make a ping key" }).click();
    await visible(page.getByRole("button", { name: "Replace the ping key" }));
    const pattern = (await page.getByText(`${pingBase}/ping/`).first().textContent())!;
    expect(pattern).toMatch(new RegExp(`^${pingBase}/ping/[A-Za-z0-9_-]{22}/<entry key>$`));
    await page.getByLabel(/makes a heartbeat that does not exist yet/).check();
    await page.getByRole("button", { name: "Save" }).last().click();
    await visible(page.getByText("Saved."));
    await shot(page, "settings-ping-key");

    await page.goto(`${dash.url}/w/${ws}/monitors/${hb.id}`);
    const byName = (await page.getByTestId("ping-url-by-name").textContent())!;
    expect(byName).toBe(pattern.replace("<entry key>", "log%20rotation"));
    expect((await fetch(`${byName}/0`)).status).toBe(200);
    await until(
      "the ping by name is listed",
      async () => {
        await page.reload();
        return (await page.getByTestId("ping").count()) === 1;
      },
      30_000,
      1000,
    );
    // The setting saved above lets a script make its own heartbeat by pinging a new name.
    expect((await fetch(`${pattern.replace("<entry key>", "weekly-vacuum")}?create=1`)).status).toBe(200);
    expect((await listMonitors(db.db, ws)).find((m) => m.key === "weekly-vacuum")).toMatchObject({ kind: "heartbeat" });
  });
});
