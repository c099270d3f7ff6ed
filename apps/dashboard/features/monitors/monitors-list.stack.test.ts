// Over 300 lines: one spine, probe and evaluated history serve every list case; splitting would start them again.
// The monitor list and detail pages in Chromium against real processes: sqld, Redis, the API server,
// workflows (evaluation), a real probe and a loopback HTTP target that the test stops and restarts.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createMonitor,
  createPrivateLocation,
  deleteMonitor,
  deletePrivateLocation,
  listAuditLog,
  listMonitors,
  markSilentLocations,
  setLimits,
  touchLocation,
} from "@vigil/core";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildDashboard,
  type Dashboard,
  healthy,
  launchChromium,
  mailSignInEnv,
  otherWorkspaceWithMonitor,
  type Proc,
  shot,
  startDashboard,
  startMailApi,
  startProbe,
  startService,
  until,
} from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let browser: Browser;
let page: Page;
let ws: number;
let target: { server: Server; port: number; url: string };
const procs: Proc[] = [];
const dir = mkdtempSync(join(tmpdir(), "vigil-monitors-"));
const prefix = `monlist-${randomBytes(3).toString("hex")}`;
const REDIS_URL = "redis://127.0.0.1:6379";

/** The loopback site being monitored; started again on the same port to recover. */
async function startTarget(port = 0) {
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const p = (server.address() as AddressInfo).port;
  return { server, port: p, url: `http://127.0.0.1:${p}/health` };
}
const stopTarget = () =>
  new Promise<void>((r) => {
    target.server.closeAllConnections();
    target.server.close(() => r());
  });

/** A service of the repo, given up to 2 min to answer /healthz (several start at once on a busy machine). */
async function service(entry: string, env: Record<string, string>, port: number) {
  const proc = await startService(entry, env);
  procs.push(proc);
  return healthy(proc, port, `${entry} healthy`);
}

beforeAll(async () => {
  const [, database, mailApi, t] = await Promise.all([buildDashboard(), startTestDatabase(), startMailApi(), startTarget()]);
  db = database;
  mail = mailApi;
  target = t;
  const [serverPort, workflowsPort] = await Promise.all([freePort(), freePort()]);
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  const common = { DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: "warn", HOST: "127.0.0.1" };
  [dash, , , browser] = await Promise.all([
    startDashboard({
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      ...mailSignInEnv(mail),
      PUBLIC_INGEST_URL: serverUrl,
      LOG_LEVEL: "warn",
    }),
    service("apps/server/src/main.ts", { ...common, PORT: String(serverPort), PROBE_WAIT_MS: "2000" }, serverPort),
    service("apps/workflows/src/main.ts", { ...common, PORT: String(workflowsPort), SWEEP_INTERVAL_MS: "1000" }, workflowsPort),
    launchChromium(),
  ]);

  // Ana signs in by magic link; her new workspace gets limits and a probe in Frankfurt.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(90_000);
  await page.goto(`${dash.url}/signin`);
  await page.getByLabel("Email").fill("ana@example.com");
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check/);
  await page.goto(await mail.linkFor("ana@example.com", /sign in to Vigil/i));
  await page.waitForURL(/\/w\/\d+$/);
  ws = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  await setLimits(db.db, ws, "unlimited", "operator");
  const location = await createPrivateLocation(db.db, ws, { name: "rack-fra", region: "fra" }, "test");
  procs.push(await startProbe(location.key, serverUrl, join(dir, "probe")));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([dash?.stop(), ...procs.map((p) => p.stop())]);
  await mail?.close();
  target?.server.close();
  await db?.close();
  if (!process.env.KEEP_TEST_FILES) rmSync(dir, { recursive: true, force: true });
});

/** The rendered text, as a person reads it. */
// biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM property
const textOf = async (l: Locator) => (await l.innerText()).trim();

/** Waits for the locator's text to match without reloading: the page must update itself. */
async function shows(l: Locator, pattern: RegExp, what: string, timeoutMs = 75_000) {
  let last = "";
  try {
    await until(
      what,
      async () => {
        last = await textOf(l).catch(() => "");
        return pattern.test(last);
      },
      timeoutMs,
      500,
    );
  } catch (err) {
    await page.screenshot({ path: join(dir, "failed.png"), fullPage: true }).catch(() => {});
    throw new Error(`${(err as Error).message}; last text: ${JSON.stringify(last.slice(0, 500))}`);
  }
}

const row = (name: string) => page.locator("tbody tr", { hasText: name });
let site: number;

describe("monitor status, live", () => {
  it("a new monitor turns green in the list without a reload, red when its target stops (the detail page shows the incident and its duration), then recovers", {
    timeout: 300_000,
  }, async () => {
    site = (
      await createMonitor(
        db.db,
        ws,
        {
          key: "site",
          name: "Marketing site",
          kind: "http",
          frequency: "30s",
          regions: ["fra"],
          retry: 0,
          timeout: 2000,
          request: { url: target.url },
        },
        "test",
      )
    ).id;
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    // "ok" with a latency: a real result, not just a monitor that nothing has failed yet.
    await shows(row("Marketing site"), /\bok\b[\s\S]*\d+ ms/, "the monitor to turn ok in the list", 150_000);
    await shows(row("Marketing site"), /\d+(\.\d+)? %/, "its 24 h uptime");
    expect(await textOf(row("Marketing site"))).toMatch(/\d+ ms/);
    // Hover shows each location's latest result.
    await row("Marketing site").getByRole("button").focus();
    await shows(page.getByRole("tooltip").filter({ visible: true }), /rack-fra[\s\S]*success/, "the per-location tooltip");
    await shot(page, "monitors");

    await stopTarget();
    await shows(row("Marketing site"), /\berror\b/, "the monitor to turn red in the list");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    await row("Marketing site").getByRole("link", { name: "Marketing site" }).click();
    await page.waitForURL(new RegExp(`/monitors/${site}$`));
    await shows(page.getByTestId("incident").first(), /ongoing/, "the open incident");
    expect(await textOf(page.getByTestId("incident").first())).toMatch(/\d+ (s|min)\b/);
    await shows(page.getByTestId("status-event").first(), /error[\s\S]*(refused|ECONNREFUSED)/i, "the error event with its cause");
    await shows(page.getByTestId("result").first(), /error/, "the failed result");

    target = await startTarget(target.port);
    await shows(page.getByTestId("incident").first(), /resolved/, "the incident to resolve");
    await shows(page.getByTestId("monitor-health"), /\bok\b/, "the monitor to be ok again");
    await shows(page.getByTestId("status-event").first(), /recovered/, "the recovered event");
    expect(await textOf(page.getByTestId("incident").first())).toMatch(/\d+ (s|min)\b/);
    // The outage is a red band on the chart and counted in its words; the failed checks are not latency points.
    await shows(
      page.getByTestId("chart-summary"),
      /\d+ checks · [1-9]\d* failed · p50 \d+ ms/,
      "the chart's summary counting the failures",
    );
    // No latency point is drawn inside a failure band (the failed check's 1 ms is not on the chart).
    const drawn = await page.locator("[data-testid=latency-chart]").evaluate((chart) => ({
      bands: [...chart.querySelectorAll<SVGGraphicsElement>(".chart-band-failed")].map((b) => {
        const box = b.getBBox();
        return [box.x, box.x + box.width];
      }),
      dots: [...chart.querySelectorAll(".recharts-line-dots circle")].map((c) => Number(c.getAttribute("cx"))),
    }));
    expect(drawn.bands.length).toBeGreaterThan(0);
    expect(drawn.dots.length).toBeGreaterThan(0);
    expect(drawn.dots.filter((x) => drawn.bands.some(([from, to]) => x > from! + 0.5 && x < to! - 0.5))).toEqual([]);
    await page.getByRole("navigation", { name: "Chart range" }).getByRole("link", { name: "Last 1 hour" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/range=1h/);
    await shows(page.getByTestId("chart-summary"), /[1-9]\d* failed/, "the failures in the 1 h view");

    // A second location in the region whose probe went silent: the page and the list say its results are missing.
    const { location: quiet } = await createPrivateLocation(db.db, ws, { name: "rack-fra-b", region: "fra" }, "test");
    await touchLocation(db.db, quiet.id, Date.now() - 10 * 60_000);
    expect(await markSilentLocations(db.db)).toContain(quiet.id);
    await shows(
      page.getByTestId("offline-locations"),
      /Location rack-fra-b has not reported since \d{4}-\d\d-\d\d \d\d:\d\d UTC: results from it are missing/,
      "the offline location's banner",
    );
    await shot(page, "monitor-detail");
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await shows(row("Marketing site"), /rack-fra-b offline · last report 1\d min ago/, "the offline mark in the list");
    await deletePrivateLocation(db.db, ws, quiet.id, "test");
  });
});

describe("finding monitors", () => {
  it("search, status, kind, tag and location filters narrow the list, sorting reorders it, and the URL keeps them", {
    timeout: 300_000,
  }, async () => {
    await createMonitor(
      db.db,
      ws,
      {
        key: "pg",
        name: "Postgres primary",
        kind: "tcp",
        frequency: "1m",
        regions: ["fra"],
        tags: ["db", "prod"],
        request: { host: "127.0.0.1", port: 1 },
      },
      "test",
    );
    await createMonitor(
      db.db,
      ws,
      {
        key: "old",
        name: "Legacy API",
        kind: "http",
        frequency: "1h",
        active: false,
        regions: ["iad"],
        tags: ["prod"],
        request: { url: "https://legacy.example.com/" },
      },
      "test",
    );
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await shows(page.getByRole("table", { name: "Monitors" }), /Legacy API[\s\S]*paused/, "every monitor listed");
    await page.getByLabel("Search name or URL").fill("postgres");
    await page.getByLabel("Search name or URL").press("Enter");
    await page.waitForURL(/q=postgres/);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await shows(row("Postgres primary"), /TCP\s*127\.0\.0\.1:1/, "the TCP target");

    // A shared link carries the filters: a fresh load of the URL gives the same list.
    await page.goto(`${dash.url}/w/${ws}/monitors?status=paused`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await shows(row("Legacy API"), /paused/, "the paused monitor");
    await page.getByLabel("Kind").selectOption("tcp");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/kind=tcp/);
    await shows(page.getByRole("main"), /No monitor matches/, "the no-match state");
    await page.goto(`${dash.url}/w/${ws}/monitors?q=legacy.example`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.goto(`${dash.url}/w/${ws}/monitors?region=iad`);
    expect(await page.locator("tbody tr").allInnerTexts()).toEqual([expect.stringContaining("Legacy API")]);
    // Tags: the filter lists the workspace's tags; a tag on a row is a link to that filter.
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await page.getByLabel("Tag").selectOption("db");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/tag=db/);
    expect(await page.locator("tbody tr").allInnerTexts()).toEqual([expect.stringContaining("Postgres primary")]);
    await row("Postgres primary").getByRole("link", { name: "prod", exact: true }).click();
    await page.waitForURL(/tag=prod/);
    expect(await page.locator("tbody tr").count()).toBe(2);

    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await page.getByRole("link", { name: "Monitor", exact: true }).click();
    await page.waitForURL(/sort=name/);
    const names = async () => (await page.locator("tbody tr td:first-child > a").allInnerTexts()).map((s) => s.trim());
    expect(await names()).toEqual(["Legacy API", "Marketing site", "Postgres primary"]);
    await page.getByRole("link", { name: "Monitor", exact: true }).click();
    await page.waitForURL(/dir=desc/);
    expect(await names()).toEqual(["Postgres primary", "Marketing site", "Legacy API"]);
    await page.goto(`${dash.url}/w/${ws}/monitors?perPage=10&page=9`);
    await shows(page.getByRole("navigation", { name: "Pages" }), /1–3 of 3 monitors\s+Page 1 of 1/, "an out-of-range page clamped");
  });

  it("another workspace's monitor is a 404 on its detail page and never listed", { timeout: 60_000 }, async () => {
    const { other, theirs } = await otherWorkspaceWithMonitor(
      db.db,
      "Rival",
      { name: "Rival secret", kind: "http", frequency: "1h", regions: ["iad"], request: { url: "https://rival.example.com/" } },
      "test",
    );
    const res = await page.goto(`${dash.url}/w/${ws}/monitors/${theirs.id}`);
    expect(res?.status()).toBe(404);
    await shows(page.getByRole("heading", { level: 1 }), /Not found/, "the 404 page");
    expect((await page.goto(`${dash.url}/w/${other.id}/monitors/${theirs.id}`))?.status()).toBe(404);
    expect((await page.goto(`${dash.url}/w/${ws}/monitors/abc`))?.status()).toBe(404);
    await page.goto(`${dash.url}/w/${ws}/monitors?q=Rival`);
    await shows(page.getByRole("main"), /No monitor matches/, "nothing from the other workspace");
  });
});

describe("acting on a monitor", () => {
  it("pause and resume, check now, and delete after confirming work from the detail page and are audited", {
    timeout: 120_000,
  }, async () => {
    await page.goto(`${dash.url}/w/${ws}/monitors/${site}`);
    await page.getByRole("button", { name: "Check now" }).click();
    // The result, or the error the page shows instead (so a failure says what the person saw).
    await shows(
      page.getByTestId("check-now-result").or(page.getByText(/^Check now: /)),
      /success[\s\S]*rack-fra \(fra\)[\s\S]*\d+ ms[\s\S]*HTTP 200/,
      "the check-now result",
      90_000,
    );

    await page.getByRole("button", { name: "Pause" }).click();
    await shows(page.getByTestId("monitor-health"), /paused/, "the monitor paused", 15_000);
    await page.goto(`${dash.url}/w/${ws}/monitors?status=paused`);
    await shows(page.getByRole("table", { name: "Monitors" }), /Marketing site/, "the paused monitor under the paused filter", 15_000);
    await page.goto(`${dash.url}/w/${ws}/monitors/${site}`);
    await page.getByRole("button", { name: "Resume" }).click();
    await shows(page.getByTestId("monitor-health"), /\bok\b/, "the monitor running again", 15_000);

    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog");
    await shows(dialog, /Delete Marketing site\?/, "the confirmation");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(page.url()).toMatch(new RegExp(`/monitors/${site}$`));
    await page.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete monitor" }).click();
    await page.waitForURL(/\/monitors\?deleted=/);
    await shows(page.getByRole("main"), new RegExp(`Monitor #${site} was deleted`), "the deletion notice");
    expect(await row("Marketing site").count()).toBe(0);
    expect((await page.goto(`${dash.url}/w/${ws}/monitors/${site}`))?.status()).toBe(404);

    const actions = (await listAuditLog(db.db, ws, { limit: 50 })).map((e) => `${e.action}:${e.targetId}`);
    expect(actions).toEqual(expect.arrayContaining([`monitor.update:${site}`, `monitor.delete:${site}`]));
  });

  it("with no monitors left the list says so and links to creating one", { timeout: 60_000 }, async () => {
    for (const m of await listMonitors(db.db, ws)) await deleteMonitor(db.db, ws, m.id, "test");
    await page.goto(`${dash.url}/w/${ws}/monitors`);
    await shows(page.getByRole("main"), /No monitors yet/, "the empty state");
    const links = page.getByRole("link", { name: "New monitor" });
    expect(await links.first().getAttribute("href")).toBe(`/w/${ws}/monitors/new`);
    await shot(page, "monitors-empty");
  });
});
