// What a removed admin, a member and an alert's reader reach in the real dashboard (next start, sqld, Chromium).
import { randomBytes } from "node:crypto";
import {
  acceptInvitation,
  confirmSubscription,
  createApiKey,
  createMonitor,
  createStatusPage,
  createWorkspace,
  inviteMember,
  listInvitations,
  listMembers,
  setLimits,
  subscribe,
  verifyApiKey,
} from "@vigil/core";
import { user } from "@vigil/db-schema";
import { channels, NotificationEvent, NotifierEnv } from "@vigil/notifier";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mailDashboardFixture, shot } from "../../src/testing";

const stack = mailDashboardFixture();

/** A person signed in through the real mail link, with the workspace their first sign-in created. */
async function signedIn(email: string): Promise<{ page: Page; userId: string; ws: number }> {
  const { page, ws } = await stack.signIn(email, { width: 1280, height: 800 });
  const { rows } = await stack.db.db.$client.execute({ sql: "SELECT id FROM user WHERE email = ?", args: [email] });
  return { page, userId: String(rows[0]!.id), ws };
}

/** Someone who joins `ws` through an invitation from `by`, without a browser. */
async function joins(ws: number, by: string, email: string, role: "admin" | "member") {
  const id = `u-${randomBytes(4).toString("hex")}`;
  await stack.db.db.insert(user).values({ id, email });
  const { token } = await inviteMember(stack.db.db, ws, { email, role }, `user:${by}`);
  await acceptInvitation(stack.db.db, token, { id, email });
  return id;
}

describe("removing a member", () => {
  it("the confirmation lists the API keys and invitations the removal revokes, and is driven by keyboard", {
    timeout: 120_000,
  }, async () => {
    const { page, userId: owner, ws } = await signedIn("owner@vigil.test");
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    const admin = await joins(ws, owner, "mallory@vigil.test", "admin");
    const { key } = await createApiKey(stack.db.db, ws, { name: "mallory's deploy script" }, `user:${admin}`);
    await createApiKey(stack.db.db, ws, { name: "ci" }, `user:${owner}`);
    await inviteMember(stack.db.db, ws, { email: "accomplice@vigil.test", role: "admin" }, `user:${admin}`);

    await page.goto(`${stack.dash.url}/w/${ws}/members`);
    const remove = page.getByRole("row", { name: /mallory@vigil\.test/ }).getByRole("button", { name: "Remove" });
    await remove.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Remove mallory@vigil.test?" });
    await dialog.waitFor({ state: "visible", timeout: 10_000 });
    const revokes = dialog.getByTestId("removal-revokes");
    await revokes.getByText("The API key they created is revoked:").waitFor({ timeout: 5000 });
    expect(await revokes.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringMatching(/^mallory's deploy script vgl_key_[\w-]+…$/),
      "accomplice@vigil.test (admin)",
    ]);
    await shot(page, "member-removal-confirm");

    // Focus starts inside the dialog; Tab reaches the confirm button, Enter removes.
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    const confirm = dialog.getByRole("button", { name: "Remove" });
    for (let i = 0; i < 4 && !(await confirm.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden", timeout: 10_000 });
    await page.getByText("1 member", { exact: true }).waitFor({ timeout: 10_000 });

    expect((await listMembers(stack.db.db, ws)).map((m) => m.email)).toEqual(["owner@vigil.test"]);
    expect(await verifyApiKey(stack.db.db, key)).toBeNull();
    expect(await listInvitations(stack.db.db, ws)).toEqual([]);
  });
});

describe("subscribers' addresses", () => {
  it("a member who is not admin cannot export subscriber e-mails", { timeout: 120_000 }, async () => {
    const { userId: owner, ws } = await signedIn("pages-owner@vigil.test");
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    const pageId = (await createStatusPage(stack.db.db, ws, { slug: "acme", title: "Acme", published: true }, "operator")).id;
    const s = await subscribe(stack.db.db, pageId, { email: "customer@example.com" });
    await confirmSubscription(stack.db.db, s.confirmToken!);
    await joins(ws, owner, "intern@vigil.test", "member");

    const { page } = await signedIn("intern@vigil.test");
    const base = `${stack.dash.url}/w/${ws}/status-pages/${pageId}/subscribers`;
    const exported = await page.request.get(`${base}/export`);
    expect(exported.status()).toBe(403);
    expect(await exported.text()).not.toContain("customer@example.com");
    await page.goto(base);
    await page.getByTestId("subscribers-hidden").waitFor({ timeout: 10_000 });
    expect(await page.content()).not.toContain("customer@example.com");
    expect(await page.getByRole("link", { name: "Export CSV" }).count()).toBe(0);
  });
});

describe("alerts", () => {
  it("the alert's Open in Vigil link opens the monitor", { timeout: 120_000 }, async () => {
    const { page, ws } = await signedIn("oncall@vigil.test");
    await setLimits(stack.db.db, ws, "unlimited", "operator");
    const probe = { kind: "http", frequency: "1m", regions: ["fra"], request: { url: "https://example.com/health" } };
    const mon = await createMonitor(stack.db.db, ws, { ...probe, key: "api", name: "Checkout API" }, "operator");
    const other = await createWorkspace(stack.db.db, { name: "Someone else's" }, "operator");
    await setLimits(stack.db.db, other.id, "unlimited", "operator");
    const theirs = await createMonitor(stack.db.db, other.id, { ...probe, key: "theirs", name: "Their API" }, "operator");

    // The link exactly as an alert carries it (Slack's "Open in Vigil" button).
    const env = NotifierEnv.parse({ DASHBOARD_URL: stack.dash.url });
    const linkOf = (id: number, name: string) => {
      const event = NotificationEvent.parse({
        type: "error",
        monitor: { id, name, url: "https://example.com/health" },
        cronTimestamp: Date.now(),
      });
      const req = channels.slack.build({ webhookUrl: "https://hooks.slack.com/services/T/B/X" }, event, { env, now: Date.now() });
      const out = Array.isArray(req) ? req[0]! : req;
      const body = JSON.parse(out.transport === "http" ? out.body : "{}");
      return body.blocks.at(-1).elements[0].url as string;
    };

    const res = await page.goto(linkOf(mon.id, mon.name));
    expect(res?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/w/${ws}/monitors/${mon.id}`);
    await page.getByRole("heading", { name: "Checkout API" }).waitFor({ timeout: 10_000 });

    expect((await page.goto(linkOf(theirs.id, theirs.name)))?.status()).toBe(404);
    expect((await page.goto(`${stack.dash.url}/monitors/99999999`))?.status()).toBe(404);
  });
});
