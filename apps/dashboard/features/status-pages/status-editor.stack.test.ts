// Over 300 lines: one running app and site serve the whole editor story; splitting would start them again.
// The status-page editor in Chromium against real processes: sqld, the dashboard's `next start`, and the
// public status-page app reading the same database.
import { randomBytes } from "node:crypto";
import {
  confirmSubscription,
  createMonitor,
  createStatusPage,
  createWorkspace,
  listStatusReports,
  setLimits,
  subscribe,
  subscribeEndpoint,
  verifyEndpointSubscribers,
} from "@vigil/core";
import { incident, pageSubscriber } from "@vigil/db-schema";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { EgressPolicy } from "@vigil/egress";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatusSite } from "../../../status-page/src/testing";
import { type Dashboard, shot, startDashboardWithSite, type startMailApi, until } from "../../src/testing";

let db: TestDatabase;
let mail: Awaited<ReturnType<typeof startMailApi>>;
let dash: Dashboard;
let site: StatusSite;
let browser: Browser;
let page: Page;
let ws: number;
let monitorId: number;
const secret = randomBytes(32).toString("base64url");

/** Waits (bounded) until the locator is visible. */
const seen = (l: Locator, timeout = 60_000) => l.first().waitFor({ state: "visible", timeout });

beforeAll(async () => {
  ({ db, mail, dash, site, browser } = await startDashboardWithSite(secret));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  await page.goto(`${dash.url}/signin`);
  await page.getByLabel("Email").fill("oncall@example.com");
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check/);
  await page.goto(await mail.linkFor("oncall@example.com", /sign in to Vigil/i));
  await page.waitForURL(/\/w\/\d+$/);
  ws = Number(/\/w\/(\d+)/.exec(page.url())![1]);
  // The starter plan: one status page, maintenance and subscribers, but no white label.
  await setLimits(db.db, ws, "starter", "operator");
  monitorId = (
    await createMonitor(
      db.db,
      ws,
      { name: "Payments API", kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
      "operator",
    )
  ).id;
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([dash?.stop(), site?.stop()]);
  await mail?.close();
  await db?.close();
});

let pageId: number;
const editor = () => `${dash.url}/w/${ws}/status-pages/${pageId}`;

describe("the status-page editor", () => {
  it("refuses a reserved slug beside the field, then creates the page and links to its public address", { timeout: 120_000 }, async () => {
    await page.goto(`${dash.url}/w/${ws}/status-pages`);
    await seen(page.getByText("No status pages yet"));
    await page.getByLabel("Title", { exact: true }).fill("Acme status");
    await page.getByLabel("Slug", { exact: true }).fill("status");
    await page.getByRole("button", { name: "Create page" }).click();
    await seen(page.getByText("Slug is reserved; choose another slug"));
    await shot(page, "status-pages-reserved-slug");
    expect(page.url()).toBe(`${dash.url}/w/${ws}/status-pages`);

    await page.getByLabel("Slug", { exact: true }).fill("acme");
    await page.getByRole("button", { name: "Create page" }).click();
    await page.waitForURL(/\/status-pages\/\d+$/);
    pageId = Number(/\/status-pages\/(\d+)$/.exec(page.url())![1]);
    expect(await page.getByTestId("public-link").getAttribute("href")).toBe(`${site.url}/acme`);
  });

  it("a setting beyond the plan is refused naming its limit key, nothing saved", { timeout: 60_000 }, async () => {
    await page.goto(editor());
    await page.getByLabel("Description", { exact: true }).fill("Live status of Acme's payments.");
    await page.getByLabel("Hide “Powered by Vigil”").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.getByTestId("form-error").getByText("Limit reached — white-label"));
    await seen(page.getByTestId("form-error").getByText("white-label", { exact: true }));
    await shot(page, "status-settings-limit");
    // The refusal wrote nothing: the description is not on the public page either.
    expect(await (await fetch(`${site.url}/acme`)).text()).not.toContain("Live status of Acme");

    await page.getByLabel("Hide “Powered by Vigil”").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.getByText("Saved. The public page shows it within 30 s."));
  });

  it("the page's language is chosen in its settings: visitors whose browser asks for none of ours read it", {
    timeout: 90_000,
  }, async () => {
    await page.goto(editor());
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.getByText("Saved. The public page shows it within 30 s."));
    const html = () => fetch(`${site.url}/acme`, { headers: { "accept-language": "ko" } }).then((r) => r.text());
    await until("the public page in German", async () => (await html()).includes('<html lang="de"'), 40_000, 1000);
    // A browser asking for English still reads English.
    expect(await (await fetch(`${site.url}/acme`, { headers: { "accept-language": "en-US" } })).text()).toContain('<html lang="en"');
    await page.reload();
    expect(await page.getByLabel("Language", { exact: true }).inputValue()).toBe("de");
    await page.getByLabel("Language", { exact: true }).selectOption("en");
    await page.getByRole("button", { name: "Save settings" }).click();
    await seen(page.getByText("Saved. The public page shows it within 30 s."));
  });

  it("components: a monitor-linked and a static one in a group, reordered with the keyboard", { timeout: 90_000 }, async () => {
    await page.goto(`${editor()}/components`);
    await page.getByLabel("Group name", { exact: true }).fill("Platform");
    await page.getByRole("button", { name: "Add group" }).click();
    await seen(page.getByTestId("group-Platform"));

    const add = async (name: string, fill: () => Promise<void>) => {
      await page.locator("#new-name").fill(name);
      await page.locator("#new-group").selectOption({ label: "Platform" });
      await fill();
      await page.getByRole("button", { name: "Add component" }).click();
      await seen(page.getByTestId(`component-${name}`));
    };
    // A linked component needs its monitor: refused beside the field until one is chosen.
    await page.locator("#new-name").fill("Payments");
    await page.getByRole("button", { name: "Add component" }).click();
    await seen(page.getByText("Monitor is required for a monitor-linked component"));
    await add("Payments", () =>
      page
        .locator("#new-monitor")
        .selectOption({ label: "Payments API" })
        .then(() => undefined),
    );
    await add("Website", async () => {
      await page.locator("#new-source").selectOption("static");
      await page.locator("#new-status").selectOption("degraded");
    });
    const order = async () =>
      (await page.getByRole("list", { name: "Components in Platform" }).getByRole("listitem").allInnerTexts()).map((t) =>
        t.includes("Website") ? "Website" : "Payments",
      );
    expect(await order()).toEqual(["Payments", "Website"]);
    await page.getByRole("button", { name: "Move Website up" }).focus();
    await page.keyboard.press("Enter");
    await until("Website first", async () => (await order())[0] === "Website", 15_000);
    await seen(page.getByText("monitor: Payments API"));
    await seen(page.getByText("static · Degraded performance"));
    await shot(page, "status-components");
  });

  it("a report with three updates: Markdown preview escapes HTML, and the public page shows the timeline", {
    timeout: 120_000,
  }, async () => {
    await page.goto(`${editor()}/reports`);
    await seen(page.getByText("No reports on this page"));
    await page.getByLabel("Title", { exact: true }).fill("Card payments failing");
    await page.getByLabel("First update", { exact: true }).fill("We are **investigating** failed card payments.");
    await page.getByLabel("Payments", { exact: true }).selectOption("partial_outage");
    // Bad input first: a message is required, the rule shows beside it.
    await page.getByLabel("First update", { exact: true }).fill("");
    await page.getByRole("button", { name: "Publish report" }).click();
    await seen(page.getByText("First update must not be empty"));
    await page.getByLabel("First update", { exact: true }).fill("We are **investigating** failed card payments.");
    await page.getByRole("button", { name: "Publish report" }).click();
    await page.waitForURL(/\/reports\/\d+$/);
    const reportId = Number(/\/reports\/(\d+)$/.exec(page.url())![1]);

    const post = async (state: string, message: string, count: number) => {
      await page.getByLabel("New state", { exact: true }).selectOption(state);
      await page.getByLabel("Message", { exact: true }).fill(message);
      await page.getByRole("button", { name: "Publish update" }).click();
      await until(`${count} updates`, async () => (await page.getByTestId("timeline").getByRole("listitem").count()) === count, 15_000);
    };
    await post("identified", "A certificate expired on the card gateway.", 2);
    // The preview renders Markdown the way the public page does: raw HTML is text, never markup.
    await page.getByLabel("New state", { exact: true }).selectOption("resolved");
    await page.getByLabel("Message", { exact: true }).fill("Renewed the certificate. <script>alert(1)</script> **All good.**");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("markdown-preview");
    await seen(preview.locator("strong", { hasText: "All good." }));
    expect(await preview.locator("script").count()).toBe(0);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as shown
    expect(await preview.innerText()).toContain("<script>alert(1)</script>");
    await page.getByRole("button", { name: "Write" }).click();
    await post("resolved", "Renewed the certificate. <script>alert(1)</script> **All good.**", 3);
    await shot(page, "status-report");
    const [stored] = await listStatusReports(db.db, ws, { pageId });
    expect(stored).toMatchObject({ id: reportId, status: "resolved" });
    expect(stored!.updates.map((u) => u.status)).toEqual(["resolved", "identified", "investigating"]);

    // The public page of the report: the three updates, newest first, Markdown rendered safely.
    const pub = await browser.newPage();
    await pub.goto(`${site.url}/acme/reports/${reportId}`);
    await seen(pub.getByText("Card payments failing"));
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, not the inline RSC payload
    const body = await pub.locator("body").innerText();
    const at = (s: string) => body.indexOf(s);
    expect(at("Renewed the certificate")).toBeGreaterThan(-1);
    expect(at("Renewed the certificate")).toBeLessThan(at("A certificate expired"));
    expect(at("A certificate expired")).toBeLessThan(at("failed card payments"));
    expect(await pub.locator("strong", { hasText: "All good." }).count()).toBe(1);
    expect(await pub.locator("script:not([src])", { hasText: "alert(1)" }).count()).toBe(0);
    await pub.close();
  });

  it("a monitor incident becomes a report in one click", { timeout: 60_000 }, async () => {
    await db.db.insert(incident).values({ workspaceId: ws, monitorId, startedAt: Date.now() - 120_000, cause: "connection refused" });
    await page.goto(`${editor()}/reports`);
    await page.getByRole("button", { name: "Promote the Payments API incident to a report" }).click();
    await page.waitForURL(/\/reports\/\d+$/);
    await seen(page.getByRole("heading", { name: /Payments API is unavailable/ }));
    await seen(page.getByText("Payments (Major outage)"));
  });

  it("a maintenance window is listed and shows on the public page", { timeout: 90_000 }, async () => {
    await page.goto(`${editor()}/maintenance`);
    await seen(page.getByText("No maintenance scheduled"));
    await page.getByLabel("Title", { exact: true }).fill("Database upgrade");
    // The window must end after it starts: said beside "To".
    const from = await page.getByLabel("From", { exact: true }).inputValue();
    await page.getByLabel("To", { exact: true }).fill(from);
    await page.getByRole("button", { name: "Schedule maintenance" }).click();
    await seen(page.getByText("To must be after startsAt"));
    const later = new Date(Date.parse(`${from}:00Z`) + 2 * 3_600_000).toISOString().slice(0, 16);
    await page.getByLabel("To", { exact: true }).fill(later);
    await page.getByLabel("Website", { exact: true }).check();
    await page.getByLabel("Payments API", { exact: true }).check();
    await page.getByRole("button", { name: "Schedule maintenance" }).click();
    await seen(page.getByText("Maintenance scheduled."));
    await seen(page.getByRole("row", { name: /Database upgrade.*scheduled/ }));
    await shot(page, "status-maintenance");

    const pub = await browser.newPage();
    await until(
      "the window on the public page",
      async () => {
        await pub.goto(`${site.url}/acme`);
        return (await pub.getByText("Database upgrade").count()) > 0;
      },
      30_000,
      1000,
    );
    await seen(pub.getByText("Scheduled"));
    await pub.close();
  });

  it("subscribers are listed, exported as CSV with their channel (email, webhook, slack) and removed", { timeout: 60_000 }, async () => {
    for (const email of ["ada@example.com", "+cmd@example.com", "bob@example.com"]) {
      const s = await subscribe(db.db, pageId, { email });
      if (email !== "bob@example.com") await confirmSubscription(db.db, s.confirmToken!);
    }
    // Endpoint subscribers (confirmed elsewhere): their rows say which channel, never the URL.
    for (const [channel, url] of [
      ["webhook", "https://hooks.example.com/status"],
      ["slack", "https://hooks.slack.com/services/T0/B0/secret-token"],
    ] as const)
      await db.db.insert(pageSubscriber).values({
        pageId,
        email: "",
        channel,
        url,
        urlHash: channel,
        tokenHash: `token-${channel}`,
        confirmedAt: Date.now(),
        createdAt: Date.now(),
      });
    // A visitor's webhook on a private network: workflows refuses it; the admin sees why, the visitor never did.
    const internal = await subscribeEndpoint(db.db, pageId, { channel: "webhook", url: "http://10.20.30.40:8080/hook" });
    await verifyEndpointSubscribers(db.db, {
      publicUrl: "https://status.example.com",
      egress: await EgressPolicy.create({ publicOnly: { setting: "SUBSCRIBER_ALLOW_PRIVATE" } }),
    });
    await page.goto(`${editor()}/subscribers`);
    await seen(page.getByTestId("subscriber-ada@example.com"));
    await seen(page.getByTestId("subscriber-bob@example.com").getByText("pending"));
    await seen(page.getByTestId(`subscriber-${internal.subscriberId}`).getByText("verification failed"));
    await seen(
      page
        .getByTestId(`subscriber-${internal.subscriberId}`)
        .getByText(
          "target 10.20.30.40:8080 is a private network address (10.0.0.0/8), not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it); refused",
        ),
    );
    await seen(page.getByText("4 confirmed of 6"));

    const csv = await page.request.get(`${editor()}/subscribers/export`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("email,channel,state,subscribed_at,confirmed_at");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual([
      '"ada@example.com",email,confirmed',
      // A spreadsheet must not run it as a formula.
      `"'+cmd@example.com",email,confirmed`,
      '"bob@example.com",email,pending',
      '"",webhook,confirmed',
      '"",slack,confirmed',
      '"",webhook,pending',
    ]);
    expect(text).not.toContain("hooks.");
    // Signed out: no list.
    expect((await fetch(`${editor()}/subscribers/export`)).status).toBe(401);

    await page.getByTestId("subscriber-ada@example.com").getByRole("button", { name: "Remove" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove subscriber" }).click();
    await until("ada removed", async () => (await page.getByTestId("subscriber-ada@example.com").count()) === 0, 15_000);
    await shot(page, "status-subscribers");
  });

  it("the editor reads well on a phone: no sideways scrolling on any tab", { timeout: 120_000 }, async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() });
    const p = await phone.newPage();
    const [report] = await listStatusReports(db.db, ws, { pageId });
    for (const [tab, name] of [
      ["", "settings"],
      ["/components", "components"],
      [`/reports/${report!.id}`, "report"],
      ["/maintenance", "maintenance"],
    ] as const) {
      await p.goto(`${editor()}${tab}`);
      await seen(p.getByRole("heading", { name: "Acme status" }));
      await shot(p, `phone-status-${name}`);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, name).toBeLessThanOrEqual(0);
      if (name === "report") {
        // Each affected component's name stays readable beside its impact.
        const labels = await p.locator('label[for^="impact-"]').all();
        expect(labels.length).toBeGreaterThan(0);
        for (const label of labels) expect((await label.boundingBox())?.width ?? 0).toBeGreaterThan(40);
      }
    }
    await phone.close();
  });

  it("another workspace's page is not found, in the editor and its export", { timeout: 60_000 }, async () => {
    const other = await createWorkspace(db.db, { name: "Other" }, "operator");
    await setLimits(db.db, other.id, "starter", "operator");
    const theirs = await createStatusPage(db.db, other.id, { slug: "theirs", title: "Theirs" }, "operator");
    for (const path of ["", "/components", "/reports", "/subscribers"]) {
      const res = await page.goto(`${dash.url}/w/${ws}/status-pages/${theirs.id}${path}`);
      expect(res?.status()).toBe(404);
    }
    expect((await page.request.get(`${dash.url}/w/${ws}/status-pages/${theirs.id}/subscribers/export`)).status()).toBe(404);
    expect((await page.request.get(`${dash.url}/w/${other.id}/status-pages/${theirs.id}/subscribers/export`)).status()).toBe(404);
    expect((await page.goto(`${dash.url}/w/${ws}/status-pages/not-a-number`))?.status()).toBe(404);
  });
});
