// Over 300 lines: one app and database hold the history every SLA case reads; splitting would seed it again.
// The SLA view in Chromium against real processes (sqld, `next start`): the figures people read are core's
// report, downloads carry the same, the printable page prints, and only the workspace's members see any of it.
import { readFileSync } from "node:fs";
import {
  acceptInvitation,
  addStatusReportUpdate,
  createComponent,
  createMonitor,
  createPrivateLocation,
  createStatusPage,
  createStatusReport,
  inviteMember,
  monitorSlaReport,
  pageSlaReport,
  reportRange,
  setLimits,
  slaCsv,
} from "@vigil/core";
import { incident, maintenance, maintenanceMonitor, user } from "@vigil/db-schema";
import { insertResults, type TestDatabase } from "@vigil/db-schema/testing";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Dashboard, otherWorkspaceWithMonitor, shot, startMailDashboard } from "../../src/testing";

let env: Awaited<ReturnType<typeof startMailDashboard>>;
let db: TestDatabase;
let dash: Dashboard;
let owner: { ctx: BrowserContext; page: Page; ws: number };
let ws: number;
let monitorId: number;
let pageId: number;

const H = 3_600_000;
const OCT = Date.UTC(2026, 9, 1);
const NOV = Date.UTC(2026, 10, 1);
const thisMonth = () => new Date().toISOString().slice(0, 7);
const seen = (l: Locator, timeout = 60_000) => l.first().waitFor({ state: "visible", timeout });
const figure = (p: Page, key: string) => p.getByTestId(`sla-${key}`);
/** A form field by its label, exactly ("Month", not the "Calendar month" radio). */
const field = (p: Page, label: string) => p.getByLabel(label, { exact: true });

beforeAll(async () => {
  env = await startMailDashboard();
  ({ db, dash } = env);
  owner = await env.signIn("owner@sla.test");
  ws = owner.ws;
  await setLimits(db.db, ws, "unlimited", "operator");
  const actor = "operator";
  const { location } = await createPrivateLocation(db.db, ws, { name: "rack-fra", region: "fra" }, actor);
  monitorId = (
    await createMonitor(
      db.db,
      ws,
      {
        kind: "http",
        key: "checkout",
        name: "Checkout API",
        frequency: "1h",
        regions: ["fra"],
        request: { url: "https://example.com/health" },
      },
      actor,
    )
  ).id;
  // Hourly results through October: errors on 5 Oct 10:00–13:00 (inside a maintenance window) and on
  // 20 Oct 00:00–02:00 (an incident). September has none.
  const errors = new Set([10, 11, 12, 13].map((h) => Date.UTC(2026, 9, 5, h)));
  for (const h of [0, 1, 2]) errors.add(Date.UTC(2026, 9, 20, h));
  const rows = [];
  for (let at = OCT; at < NOV; at += H)
    rows.push({
      workspaceId: ws,
      monitorId,
      locationId: location.id,
      cronTimestamp: at,
      status: errors.has(at) ? ("error" as const) : ("success" as const),
      latencyMs: 80,
      evaluatedAt: at,
    });
  await insertResults(db.db, rows);
  const [w] = await db.db
    .insert(maintenance)
    .values({ workspaceId: ws, title: "Database upgrade", startsAt: Date.UTC(2026, 9, 5, 10), endsAt: Date.UTC(2026, 9, 5, 14) })
    .returning();
  await db.db.insert(maintenanceMonitor).values({ maintenanceId: w!.id, monitorId });
  await db.db.insert(incident).values({
    workspaceId: ws,
    monitorId,
    startedAt: Date.UTC(2026, 9, 20, 0),
    resolvedAt: Date.UTC(2026, 9, 20, 3),
    cause: "connection refused",
  });
  pageId = (await createStatusPage(db.db, ws, { slug: "sla-acme", title: "Acme status" }, actor)).id;
  await createComponent(db.db, ws, pageId, { name: "Checkout", monitorId }, actor);
  const report = await createStatusReport(
    db.db,
    ws,
    { pageId, title: "Checkout errors", message: "Looking into it", date: Date.UTC(2026, 9, 20, 0, 10) },
    actor,
  );
  await addStatusReportUpdate(db.db, ws, report.id, { status: "resolved", message: "Fixed", date: Date.UTC(2026, 9, 20, 3) }, actor);
}, 900_000);

afterAll(async () => {
  await env?.close();
});

describe("the SLA view", () => {
  it("a monitor's SLA shows core's uptime and error budget for the month chosen, its incidents and the maintenance left out", {
    timeout: 120_000,
  }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}`);
    await p.getByRole("link", { name: "SLA report" }).click();
    await p.waitForURL(/\/sla$/);
    // The current month by default: nothing stored yet, said plainly.
    await seen(p.getByRole("heading", { name: "SLA report · Checkout API" }));
    expect(await field(p, "Month").inputValue()).toBe(thisMonth());
    expect(await field(p, "Target").inputValue()).toBe("99.9");
    await seen(p.getByText("No checks in this period"));
    await shot(p, "sla-empty");

    await field(p, "Month").fill("2026-10");
    await field(p, "Target").fill("99");
    await p.getByRole("button", { name: "Show report" }).click();
    await seen(p.getByRole("heading", { name: "October 2026" }));
    // The core report, and what a person reads of it.
    const core = await monitorSlaReport(db.db, ws, monitorId, reportRange({ month: "2026-10" }), 0.99);
    expect(core).toMatchObject({ checks: 740, failed: 3, inMaintenance: 4 });
    expect(await figure(p, "uptime").textContent()).toContain("99.594 %"); // 737 / 740, rounded down
    expect(await figure(p, "uptime").textContent()).toContain(
      `${core.checks - core.failed} of ${core.checks} checks up · meets the target`,
    );
    expect(await figure(p, "allowed").textContent()).toContain("7 h 24 min"); // 1 % of 740 counted hours
    expect(await figure(p, "allowed").textContent()).toContain(`${core.errorBudget.allowedFailures.toFixed(2)} failed checks`);
    expect(await figure(p, "used").textContent()).toContain("3 h");
    expect(await figure(p, "remaining").textContent()).toContain(`${(core.errorBudget.remaining * 100).toFixed(1)} %`);
    expect(await figure(p, "remaining").textContent()).toContain("4 h 24 min left");
    await seen(
      p.getByText(
        "Measured 31 d from 2026-10-01 00:00 UTC: 30 d 17 h up · 3 h down · 4 h in maintenance left out. 740 checks counted, 4 in maintenance left out",
      ),
    );
    const incidents = p.getByTestId("sla-incident");
    expect(await incidents.count()).toBe(core.incidents.length);
    expect(await incidents.first().textContent()).toMatch(
      /Checkout API: connection refused[\s\S]*2026-10-20 00:00 UTC[\s\S]*2026-10-20 03:00 UTC[\s\S]*3 h/,
    );
    await seen(p.getByRole("row", { name: /Database upgrade/ }));
    await shot(p, "sla-monitor");

    // The default 99.9 % allows 44 min 24 s: three failed hours exhaust it.
    await field(p, "Target").fill("99.9");
    await p.getByRole("button", { name: "Show report" }).click();
    await seen(figure(p, "remaining").getByText("Budget exhausted"));
    expect(await figure(p, "uptime").textContent()).toContain("below the target");
    expect(await figure(p, "allowed").textContent()).toContain("44 min 24 s");
    expect(await figure(p, "remaining").textContent()).toContain("overspent by 2 h 15 min 36 s (-305.4 %)");
    await shot(p, "sla-exhausted");

    // One month back: September has no checks.
    await p.getByRole("link", { name: "September 2026" }).click();
    await seen(p.getByRole("heading", { name: "September 2026" }));
    await seen(p.getByText("No checks in this period"));
    expect(await field(p, "Month").inputValue()).toBe("2026-09");
  });

  it("a custom range counts only its own hours", { timeout: 60_000 }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla`);
    await p.getByLabel("Custom range").check();
    await field(p, "From").fill("2026-10-20");
    await field(p, "To").fill("2026-10-21");
    await p.getByRole("button", { name: "Show report" }).click();
    await seen(p.getByRole("heading", { name: "2026-10-20 00:00 – 2026-10-21 00:00 UTC" }));
    const core = await monitorSlaReport(db.db, ws, monitorId, reportRange({ from: "2026-10-20", to: "2026-10-21" }), 0.999);
    expect(core).toMatchObject({ checks: 24, failed: 3 });
    expect(await figure(p, "uptime").textContent()).toContain("87.500 %");
    expect(await figure(p, "uptime").textContent()).toContain("21 of 24 checks up");
  });

  it("the CSV and JSON downloads are core's report for the period shown", { timeout: 60_000 }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
    const [download] = await Promise.all([p.waitForEvent("download"), p.getByRole("link", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe(`sla-monitor-${monitorId}-2026-10.csv`);
    const core = await monitorSlaReport(db.db, ws, monitorId, reportRange({ month: "2026-10" }), 0.99);
    expect(readFileSync((await download.path())!, "utf8")).toBe(slaCsv(core));
    const json = await p.request.get(await p.getByRole("link", { name: "Download JSON" }).evaluate((a) => (a as HTMLAnchorElement).href));
    expect(json.headers()["content-type"]).toContain("application/json");
    expect(await json.json()).toEqual(JSON.parse(JSON.stringify(core)));
    // Signed out: no report.
    expect((await fetch(`${dash.url}/w/${ws}/monitors/${monitorId}/sla/export?month=2026-10`)).status).toBe(401);
  });

  it("the printable page has the workspace, monitor, period, figures and incidents and no navigation, and prints to PDF", {
    timeout: 60_000,
  }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
    await p.getByRole("link", { name: "Printable page" }).click();
    await p.waitForURL(new RegExp(`/print/w/${ws}/monitors/${monitorId}/sla\\?month=2026-10&target=99$`));
    await seen(p.getByRole("heading", { name: "SLA report: Checkout API" }));
    expect(await p.getByRole("navigation").count()).toBe(0);
    expect(await p.getByRole("link", { name: "Monitors" }).count()).toBe(0);
    await seen(p.getByText("Vigil · owner's workspace"));
    expect(await p.getByTestId("print-period").textContent()).toContain("October 2026");
    expect(await p.getByTestId("print-uptime").textContent()).toContain("99.594 %");
    expect(await p.getByTestId("print-remaining").textContent()).toContain("59.5 %");
    await seen(p.getByRole("cell", { name: /Checkout API: connection refused/ }));
    await shot(p, "sla-print");
    // On paper: the screen's buttons are gone, and Chromium makes one A4 page of it.
    await p.emulateMedia({ media: "print" });
    expect(await p.getByRole("button", { name: "Print or save as PDF" }).isVisible()).toBe(false);
    await shot(p, "sla-print-media");
    const pdf = await p.pdf({ format: "A4", preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
    await p.emulateMedia({ media: "screen" });
    await p.getByRole("link", { name: "Back to the report" }).click();
    await p.waitForURL(new RegExp(`/w/${ws}/monitors/${monitorId}/sla\\?month=2026-10&target=99$`));
  });

  it("a status page's SLA tab counts its monitors together and lists its status reports as incidents", { timeout: 60_000 }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/status-pages/${pageId}`);
    await p.getByRole("link", { name: "SLA", exact: true }).click();
    await p.waitForURL(/\/sla$/);
    await field(p, "Month").fill("2026-10");
    await field(p, "Target").fill("99");
    await p.getByRole("button", { name: "Show report" }).click();
    await seen(p.getByRole("heading", { name: "October 2026" }));
    const core = await pageSlaReport(db.db, ws, pageId, reportRange({ month: "2026-10" }), 0.99);
    expect(await figure(p, "uptime").textContent()).toContain("99.594 %");
    expect(await p.getByTestId("sla-monitor").getByRole("cell").allTextContents()).toEqual([
      "Checkout API",
      "31 d",
      "—",
      "740",
      "3",
      "99.594 %",
      "59.5 %",
    ]);
    expect(await p.getByTestId("sla-incident").count()).toBe(core.incidents.length);
    await seen(p.getByTestId("sla-incident").filter({ hasText: "Checkout errors" }).getByText("Status report"));
    await shot(p, "sla-status-page");
    const csv = await p.request.get(`${dash.url}/w/${ws}/status-pages/${pageId}/sla/export?month=2026-10&target=99&format=csv`);
    expect(await csv.text()).toBe(slaCsv(core));
    await p.goto(`${dash.url}/print/w/${ws}/status-pages/${pageId}/sla?month=2026-10&target=99`);
    await seen(p.getByRole("heading", { name: "SLA report: Acme status" }));
  });

  it("a bad month, range or target is named with its rule beside the field, never a server error", { timeout: 90_000 }, async () => {
    const p = owner.page;
    const base = `${dash.url}/w/${ws}/monitors/${monitorId}/sla`;
    await p.goto(`${base}?month=2026-10`);
    await field(p, "Target").fill("100");
    await p.getByRole("button", { name: "Show report" }).click();
    await seen(p.getByText("Target must be below 100"));
    expect(await field(p, "Target").getAttribute("aria-invalid")).toBe("true");
    expect(await p.getByTestId("sla-uptime").count()).toBe(0);
    await shot(p, "sla-invalid-target");
    const cases: [string, string][] = [
      ["month=2026-10&target=0", "Target must be above 0"],
      ["month=2026-10&target=abc", "Target must be a number"],
      ["month=2026-13", "Month must be a calendar month as YYYY-MM"],
      ["month=2099-01", "Month must not be in the future"],
      ["period=range&from=2026-10-10&to=2026-10-01", "To must be after from"],
      ["period=range&from=", "From is required for a custom range"],
      ["period=range&from=yesterday", "From must be a date (YYYY-MM-DD, UTC) or an ISO 8601 time"],
    ];
    for (const [query, message] of cases) {
      const res = await p.goto(`${base}?${query}`);
      expect(res?.status(), query).toBe(200);
      await seen(p.getByRole("alert").filter({ hasText: message }));
    }
    // The downloads and the printable page refuse the same, naming the field.
    const bad = await p.request.get(`${base}/export?month=2026-10&target=100&format=csv`);
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toBe("target must be below 100\n");
    await p.goto(`${dash.url}/print/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=0`);
    await seen(p.getByRole("alert").filter({ hasText: "target must be above 0" }));
  });

  it("the form is used with the keyboard alone: every control labelled, in reading order", { timeout: 60_000 }, async () => {
    const p = owner.page;
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
    await p.getByLabel("Calendar month").click();
    expect(await p.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("month");
    // A date input takes one Tab per part (day, month, year): each control is counted once.
    const order: string[] = [];
    for (let i = 0; i < 40 && order.at(-1) !== "Download JSON"; i++) {
      await p.keyboard.press("Tab");
      const name = await p.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
        return (label ?? el.textContent ?? "").trim();
      });
      if (order.at(-1) !== name) order.push(name);
    }
    expect(order).toEqual([
      "Month",
      "From",
      "To",
      "Target",
      "Show report",
      "September 2026",
      "November 2026",
      "Download CSV",
      "Download JSON",
    ]);
    // Enter in the target field submits the form.
    await field(p, "Target").fill("99.5");
    await field(p, "Target").press("Enter");
    await p.waitForURL(/target=99\.5/);
    await seen(p.getByText("Checkout API · target 99.5 % ·"));
  });

  it("when the report cannot be computed the view says so under the monitor's name, and Try again brings it back", {
    timeout: 60_000,
  }, async () => {
    const p = owner.page;
    // The results table away for a moment: the report's query fails, the monitor itself still reads.
    await db.db.$client.execute("ALTER TABLE check_result_row RENAME TO check_result_row_away");
    try {
      await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
      await seen(p.getByText("The SLA report could not be computed"));
      await seen(p.getByRole("heading", { name: "SLA report · Checkout API" }));
      await shot(p, "sla-error");
    } finally {
      await db.db.$client.execute("ALTER TABLE check_result_row_away RENAME TO check_result_row");
    }
    await p.getByRole("button", { name: "Try again" }).click();
    await seen(figure(p, "uptime").getByText("99.594 %"));
  });

  it("the SLA view reads on a phone without sideways scrolling", { timeout: 60_000 }, async () => {
    const phone = await owner.page
      .context()
      .browser()!
      .newContext({ viewport: { width: 390, height: 844 }, storageState: await owner.ctx.storageState() });
    const p = await phone.newPage();
    await p.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
    await seen(figure(p, "uptime"));
    await shot(p, "phone-sla");
    expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });

  it("a viewer reads the SLA view, its downloads and its printable page", { timeout: 90_000 }, async () => {
    await db.db.insert(user).values({ id: "sla-viewer", email: "vera@sla.test" });
    const { token } = await inviteMember(db.db, ws, { email: "vera@sla.test", role: "viewer" }, "operator");
    await acceptInvitation(db.db, token, { id: "sla-viewer", email: "vera@sla.test" });
    const viewer = await env.signIn("vera@sla.test");
    const v = viewer.page;
    await v.goto(`${dash.url}/w/${ws}/monitors/${monitorId}`);
    await v.getByRole("link", { name: "SLA report" }).click();
    await v.waitForURL(/\/sla$/);
    await v.goto(`${dash.url}/w/${ws}/monitors/${monitorId}/sla?month=2026-10&target=99`);
    expect(await figure(v, "uptime").textContent()).toContain("99.594 %");
    await seen(v.getByTestId("viewer-banner"));
    await shot(v, "sla-viewer");
    expect((await v.request.get(`${dash.url}/w/${ws}/monitors/${monitorId}/sla/export?month=2026-10&format=csv`)).status()).toBe(200);
    expect((await v.request.get(`${dash.url}/w/${ws}/status-pages/${pageId}/sla/export?month=2026-10&format=json`)).status()).toBe(200);
    expect((await v.goto(`${dash.url}/w/${ws}/status-pages/${pageId}/sla?month=2026-10`))?.status()).toBe(200);
    expect((await v.goto(`${dash.url}/print/w/${ws}/monitors/${monitorId}/sla?month=2026-10`))?.status()).toBe(200);
    await viewer.ctx.close();
  });

  it("another workspace's monitor or page is not found: the view, its downloads and its printable page", { timeout: 60_000 }, async () => {
    const { other, theirs: theirMonitor } = await otherWorkspaceWithMonitor(
      db.db,
      "Other",
      { kind: "http", name: "Theirs", frequency: "1h", regions: ["fra"], request: { url: "https://example.org/" } },
      "operator",
    );
    const theirPage = await createStatusPage(db.db, other.id, { slug: "sla-theirs", title: "Theirs" }, "operator");
    const p = owner.page;
    const paths = [
      `/w/${ws}/monitors/${theirMonitor.id}/sla`,
      `/w/${other.id}/monitors/${theirMonitor.id}/sla`,
      `/w/${ws}/status-pages/${theirPage.id}/sla`,
      `/w/${other.id}/status-pages/${theirPage.id}/sla`,
      `/print/w/${ws}/monitors/${theirMonitor.id}/sla`,
      `/print/w/${other.id}/monitors/${theirMonitor.id}/sla`,
      `/print/w/${ws}/status-pages/${theirPage.id}/sla`,
      `/print/w/${ws}/locations/${monitorId}/sla`,
      `/w/${ws}/monitors/not-a-number/sla`,
    ];
    for (const path of paths) expect((await p.goto(`${dash.url}${path}?month=2026-10`))?.status(), path).toBe(404);
    for (const path of [
      `/w/${ws}/monitors/${theirMonitor.id}/sla/export?month=2026-10`,
      `/w/${other.id}/monitors/${theirMonitor.id}/sla/export?month=2026-10`,
      `/w/${ws}/status-pages/${theirPage.id}/sla/export?month=2026-10`,
    ])
      expect((await p.request.get(`${dash.url}${path}`)).status(), path).toBe(404);
  });
});
