import { mkdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import {
  addStatusReportUpdate,
  createComponent,
  createComponentGroup,
  createMaintenance,
  createStatusPage,
  createStatusReport,
  sendSubscriberMails,
} from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { NotifierEnv } from "@vigil/notifier";
import { metricsHeaders } from "@vigil/testing";
import { launchChromium } from "@vigil/testing/browser";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MailApi,
  newMonitor,
  proveDomain,
  ROOT,
  reportCheck,
  type SeededSite,
  type StatusSite,
  seedHistory,
  seedWorkspace,
  send,
  startSiteWithMail,
  until,
} from "./testing";

const SHOTS = join(ROOT, "docs/screenshots");

let t: TestDatabase;
let site: StatusSite;
let mailApi: MailApi;
let browser: Browser;
let seed: SeededSite["seed"];
let mailEnv: NotifierEnv;

beforeAll(async () => {
  let env: Record<string, string>;
  ({ t, site, seed, mailApi, env } = await startSiteWithMail());
  mailEnv = NotifierEnv.parse(env);
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await mailApi?.close();
  await t?.close();
});

/** A request as a visitor of `host` sends it (fetch cannot set Host). */
const onHost = (host: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(site.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      let b = "";
      res.on("data", (d) => (b += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on("error", reject);
    req.end();
  });

/** A browser context with JavaScript off: everything a visitor needs must work without it. */
const noJs = (viewport = { width: 1280, height: 800 }): Promise<BrowserContext> =>
  browser.newContext({ javaScriptEnabled: false, viewport });

/** A JavaScript-free context and a tab on `path`, once the report titled `title` shows there. */
async function onceReportShows(path: string, title: string) {
  const ctx = await noJs();
  const p = await ctx.newPage();
  await until(
    "the report on the page",
    async () => {
      await p.goto(`${site.url}${path}`);
      return (await p.getByText(title).count()) > 0;
    },
    20_000,
    1000,
  );
  return { ctx, p };
}

const overallOf = async (ctx: BrowserContext, path: string) => {
  const page = await ctx.newPage();
  await page.goto(`${site.url}${path}`);
  const overall = await page.locator("[data-overall]").getAttribute("data-overall");
  await page.close();
  return overall;
};

describe("the public status page", () => {
  it("a monitor-linked component shows major outage while its monitor fails and operational after recovery", async () => {
    const m = await newMonitor(t.db, seed.ws, "API");
    const page = await createStatusPage(
      t.db,
      seed.ws,
      { slug: "acme", title: "Acme", description: "Live status of Acme's services." },
      "u",
    );
    const group = await createComponentGroup(t.db, seed.ws, page.id, { name: "Platform" }, "u");
    const api = await createComponent(t.db, seed.ws, page.id, { name: "REST API", monitorId: m.id, groupId: group.id }, "u");
    await reportCheck(t.db, seed.location, m.id, "success", Date.now() - 60_000);
    await reportCheck(t.db, seed.location, m.id, "error");

    const ctx = await noJs();
    await until("major outage on the page", async () => (await overallOf(ctx, "/acme")) === "major_outage", 20_000, 1000);
    const p = await ctx.newPage();
    await p.goto(`${site.url}/acme`);
    await expect(p.locator("h1").first().textContent()).resolves.toBe("Major outage");
    expect(await p.getByText("REST API").locator("xpath=ancestor::div[contains(@class,'px-5')][1]").textContent()).toContain(
      "Major outage",
    );
    const json = await (await fetch(`${site.url}/acme/status.json`)).json();
    expect(json.status.indicator).toBe("major_outage");
    expect(json.components).toMatchObject([{ id: api.id, name: "REST API", group: "Platform", status: "major_outage" }]);

    await reportCheck(t.db, seed.location, m.id, "success", Date.now() + 60_000);
    // The page may be served from its short cache; an update shows within seconds, far under 30 s.
    const started = Date.now();
    await until("operational again", async () => (await overallOf(ctx, "/acme")) === "operational", 30_000, 500);
    expect(Date.now() - started).toBeLessThan(30_000);
    await ctx.close();
  });

  it("a status report with three updates shows its timeline, has a permanent page and lands in RSS and Atom", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "timeline", title: "Timeline Co" }, "u");
    const web = await createComponent(t.db, seed.ws, page.id, { name: "Website" }, "u");
    const t0 = Date.now() - 3_600_000;
    const r = await createStatusReport(
      t.db,
      seed.ws,
      {
        pageId: page.id,
        title: "Checkout errors",
        message: "We see **failed payments**. <script>alert(1)</script>",
        date: t0,
        components: [{ componentId: web.id, impact: "partial_outage" }],
      },
      "u",
    );
    await addStatusReportUpdate(
      t.db,
      seed.ws,
      r.id,
      { status: "identified", message: "A bad deploy; rolling back.", date: t0 + 600_000 },
      "u",
    );
    await addStatusReportUpdate(
      t.db,
      seed.ws,
      r.id,
      { status: "monitoring", message: "Rolled back, watching [the graphs](https://example.com/graphs).", date: t0 + 1_200_000 },
      "u",
    );

    const { ctx, p } = await onceReportShows("/timeline", "Checkout errors");
    expect(await p.locator("[data-overall]").getAttribute("data-overall")).toBe("partial_outage");
    await p.goto(`${site.url}/timeline/reports/${r.id}`);
    const steps = await p.locator("article ol > li > p > strong").allTextContents();
    expect(steps).toEqual(["Monitoring", "Identified", "Investigating"]);
    expect(await p.locator("article strong", { hasText: "failed payments" }).count()).toBe(1);
    // Raw HTML in Markdown is shown as text, never run.
    expect(await p.locator("article script").count()).toBe(0);
    expect(await p.locator("article").textContent()).toContain("<script>alert(1)</script>");
    await p.screenshot({ path: join(SHOTS, "status-page-report.png"), fullPage: true });

    const rss = await fetch(`${site.url}/timeline/rss`);
    expect(rss.headers.get("content-type")).toContain("application/rss+xml");
    const rssText = await rss.text();
    expect(rssText).toContain("<title><![CDATA[Checkout errors (Monitoring)]]></title>");
    expect(rssText).toContain(`/timeline/reports/${r.id}</link>`);
    const atom = await (await fetch(`${site.url}/timeline/atom`)).text();
    expect(atom).toContain("Checkout errors");
    // The feeds parse as XML in the browser.
    const ok = await p.evaluate(
      (x) => new DOMParser().parseFromString(x, "application/xml").getElementsByTagName("parsererror").length === 0,
      rssText,
    );
    expect(ok).toBe(true);
    await ctx.close();
  });

  it("subscribe by e-mail without JavaScript: confirmation mail, confirm page, one mail per new report with a working unsubscribe link", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "mailing", title: "Mailing Co" }, "u");
    await createComponent(t.db, seed.ws, page.id, { name: "Inbox" }, "u");
    const ctx = await noJs();
    const p = await ctx.newPage();
    await p.goto(`${site.url}/mailing`);
    await p.fill("input[name=email]", "visitor@example.com");
    await p.click("button[type=submit]");
    await expect(p.getByRole("status").textContent()).resolves.toContain("check your inbox");

    const confirmMail = await until("the confirmation mail", () => mailApi.mails.find((m) => m.to[0] === "visitor@example.com"));
    expect(confirmMail.subject).toBe("Confirm your subscription to Mailing Co");
    const confirmUrl = /Confirm: (\S+)/.exec(confirmMail.text)![1]!;
    expect(confirmUrl.startsWith(`${site.url}/confirm?token=`)).toBe(true);
    await p.goto(confirmUrl);
    await p.click("button[type=submit]");
    await expect(p.locator("h1").textContent()).resolves.toBe("You are subscribed");
    await p.screenshot({ path: join(SHOTS, "status-page-subscribed.png") });
    await p.goto(confirmUrl);
    await expect(p.locator("h1").textContent()).resolves.toBe("You are subscribed");
    await p.goto(`${site.url}/confirm?token=not-a-real-token`);
    await expect(p.locator("h1").textContent()).resolves.toBe("This link does not work");

    await new Promise((r) => setTimeout(r, 20));
    const before = mailApi.mails.length;
    await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Delayed mail", message: "Messages arrive late." }, "u");
    expect(await sendSubscriberMails(t.db, mailEnv, { publicUrl: site.url })).toMatchObject({ sent: 1, failed: 0 });
    expect(await sendSubscriberMails(t.db, mailEnv, { publicUrl: site.url })).toMatchObject({ sent: 0 });
    const sent = mailApi.mails.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toEqual(["visitor@example.com"]);
    expect(sent[0]!.subject).toBe("[Mailing Co] Investigating: Delayed mail");
    const unsubscribeUrl = /Unsubscribe: (\S+)/.exec(sent[0]!.text)![1]!;
    await p.goto(unsubscribeUrl);
    await p.click("button[type=submit]");
    await expect(p.locator("h1").textContent()).resolves.toBe("You are unsubscribed");
    await p.goto(unsubscribeUrl);
    await expect(p.locator("h1").textContent()).resolves.toBe("You are unsubscribed");

    // A bad address (the browser's own check bypassed) gets a clear message, not an error page.
    const bad = await fetch(`${site.url}/mailing/subscribe`, {
      method: "POST",
      body: new URLSearchParams({ email: "not an address" }),
      redirect: "manual",
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/mailing?subscribe=invalid#subscribe");
    await ctx.close();
  });

  it("a password-protected page asks for the password, sets a signed cookie, and slows down guessing", async () => {
    const page = await createStatusPage(
      t.db,
      seed.ws,
      { slug: "private", title: "Private Co", password: "open sesame 42", allowIndex: false },
      "u",
    );
    await createComponent(t.db, seed.ws, page.id, { name: "Secret service" }, "u");
    const ctx = await noJs();
    const p = await ctx.newPage();
    await p.goto(`${site.url}/private`);
    expect(await p.getByText("Secret service").count()).toBe(0);
    expect(await p.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    await p.screenshot({ path: join(SHOTS, "status-page-password.png") });
    expect((await fetch(`${site.url}/private/status.json`)).status).toBe(404);

    await p.fill("input[name=password]", "wrong guess");
    await p.click("button[type=submit]");
    await expect(p.getByRole("alert").textContent()).resolves.toContain("not right");
    await p.fill("input[name=password]", "open sesame 42");
    await p.click("button[type=submit]");
    await expect(p.getByText("Secret service").count()).resolves.toBe(1);
    const cookie = (await ctx.cookies()).find((c) => c.name === `vigil_page_${page.id}`)!;
    expect(cookie.httpOnly).toBe(true);
    // A forged cookie is refused.
    const forged = await fetch(`${site.url}/private/status.json`, {
      headers: { cookie: `vigil_page_${page.id}=${Date.now() + 9e9}.AAAA` },
    });
    expect(forged.status).toBe(404);
    const real = await fetch(`${site.url}/private/status.json`, { headers: { cookie: `vigil_page_${page.id}=${cookie.value}` } });
    expect(real.status).toBe(200);

    // Five wrong guesses from one client address lock it out, even with the right password.
    const guess = (password: string) => send(site.url, "/private/unlock", { form: { password }, from: "127.0.0.9" });
    for (let i = 0; i < 5; i++) expect((await guess(`nope ${i}`)).headers.location).toContain("auth=wrong");
    const locked = await guess("open sesame 42");
    expect(locked.headers.location).toContain("auth=locked");
    expect(locked.headers["set-cookie"]).toBeUndefined();
    await ctx.close();
  });

  it("visitors download no script: open, protected and history views are plain HTML and CSS", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "plain", title: "Plain Co", password: "plain pass 42" }, "u");
    await createComponent(t.db, seed.ws, page.id, { name: "Plain API" }, "u");
    const report = await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Plain incident", message: "Looking." }, "u");
    const unlock = await fetch(`${site.url}/plain/unlock`, {
      method: "POST",
      body: new URLSearchParams({ password: "plain pass 42" }),
      headers: { "x-forwarded-for": "203.0.113.77" },
      redirect: "manual",
    });
    const cookie = unlock.headers.get("set-cookie")!.split(";")[0]!;
    const views = {
      prompt: await fetch(`${site.url}/plain`),
      page: await fetch(`${site.url}/plain`, { headers: { cookie } }),
      history: await fetch(`${site.url}/plain/history?page=1`, { headers: { cookie } }),
      report: await fetch(`${site.url}/plain/reports/${report.id}`, { headers: { cookie } }),
    };
    for (const [name, res] of Object.entries(views)) {
      const html = await res.text();
      expect(res.status, name).toBe(200);
      expect(html, name).not.toMatch(/<script\b/);
      expect(html, name).not.toContain('as="script"');
      expect(html, name).toMatch(/<link rel="stylesheet"/);
      expect(res.headers.get("cache-control"), name).toBe("private, no-store");
    }
    await createStatusPage(t.db, seed.ws, { slug: "plain-open", title: "Plain Open" }, "u");
    // The first visitor's copy is rendered; the next is served from memory before Next's router.
    for (const state of ["miss", "hit"]) {
      const res = await fetch(`${site.url}/plain-open`);
      expect(res.headers.get("x-vigil-cache")).toBe(state);
      const html = await res.text();
      expect(html).toContain("Plain Open");
      expect(html).not.toMatch(/<script\b/);
    }
  });

  it("badges are valid SVG with the right status, content type and cache headers", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "badge-co", title: "Badges" }, "u");
    const c = await createComponent(t.db, seed.ws, page.id, { name: "Edge", staticStatus: "degraded" }, "u");
    await createComponent(t.db, seed.ws, page.id, { name: "Core" }, "u");
    const res = await fetch(`${site.url}/badge-co/badge.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toMatch(/s-maxage=\d+/);
    const svg = await res.text();
    const one = await (await fetch(`${site.url}/badge-co/badge.svg?component=${c.id}`)).text();
    const uptime = await (await fetch(`${site.url}/badge-co/badge.svg?type=uptime&window=7d`)).text();
    const bad = await fetch(`${site.url}/badge-co/badge.svg?window=2y&type=uptime`);
    expect(bad.status).toBe(400);
    const ctx = await noJs();
    const p = await ctx.newPage();
    await p.goto(`${site.url}/healthz`);
    const parsed = await p.evaluate(
      (list) =>
        list.map((x) => {
          const doc = new DOMParser().parseFromString(x, "image/svg+xml");
          return {
            error: doc.getElementsByTagName("parsererror").length > 0,
            root: doc.documentElement.nodeName,
            label: doc.documentElement.getAttribute("aria-label"),
          };
        }),
      [svg, one, uptime],
    );
    expect(parsed).toEqual([
      { error: false, root: "svg", label: "status: degraded performance" },
      { error: false, root: "svg", label: "Edge: degraded performance" },
      { error: false, root: "svg", label: "uptime 7d: no data" },
    ]);
    await ctx.close();
  });

  it("an unverified domain gets a 404 on the status page", async () => {
    // Another workspace claims a customer's domain without proving it.
    const squatter = await seedWorkspace(t.db, "Squatter");
    await createStatusPage(t.db, squatter.ws, { slug: "squat", title: "Squatter Ltd", customDomain: "status.victim.test" }, "u");
    for (const path of ["/", "/history", "/status.json", "/feed.rss"]) {
      const claimed = await onHost("status.victim.test", path);
      const unknown = await onHost("status.nobody.test", path);
      expect(claimed.body).not.toContain("Squatter Ltd");
      // Exactly what a host nobody claimed gets.
      expect(claimed.status).toBe(unknown.status);
      if (path !== "/") expect(claimed.status).toBe(404);
    }
  });

  it("an unknown page is a real 404, a custom domain serves its page, and white label hides our footer", async () => {
    expect((await fetch(`${site.url}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${site.url}/no-such-page/status.json`)).status).toBe(404);
    const branded = await createStatusPage(
      t.db,
      seed.ws,
      { slug: "branded", title: "Branded Inc", customDomain: "status.branded.test", whiteLabel: true },
      "u",
    );
    expect((await proveDomain(t.db, seed.ws, branded)).state).toBe("verified");
    const { status, body } = await onHost("status.branded.test", "/");
    expect(status).toBe(200);
    expect(body).toContain("Branded Inc");
    expect(body).not.toContain("Powered by");
    // Links on the custom domain do not carry the slug.
    expect(body).toContain('href="/history"');
    const plainRes = await fetch(`${site.url}/acme`);
    // Public pages may be cached briefly by a CDN; an update still shows within 30 s.
    expect(plainRes.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=15, stale-while-revalidate=15");
    const plain = await plainRes.text();
    expect(plain).toContain("Powered by");
    expect((await fetch(`${site.url}/metrics`, { headers: metricsHeaders() })).headers.get("content-type")).toContain("text/plain");
  });

  it("90 days of bars: hover and keyboard focus show a day's uptime and incidents; screenshots at desktop and phone width", async () => {
    const mons = await Promise.all(["Website", "API", "Dashboard", "Webhooks"].map((n) => newMonitor(t.db, seed.ws, n)));
    const page = await createStatusPage(
      t.db,
      seed.ws,
      {
        slug: "northwind",
        title: "Northwind",
        description: "Current status of Northwind's apps and APIs. Subscribe to hear about incidents and maintenance.",
        links: [
          { label: "Help center", url: "https://help.northwind.test" },
          { label: "northwind.test", url: "https://northwind.test" },
        ],
      },
      "u",
    );
    const apps = await createComponentGroup(t.db, seed.ws, page.id, { name: "Applications" }, "u");
    const apis = await createComponentGroup(t.db, seed.ws, page.id, { name: "APIs" }, "u");
    const comps = [];
    for (const [i, m] of mons.entries())
      comps.push(await createComponent(t.db, seed.ws, page.id, { name: m.name, monitorId: m.id, groupId: i < 3 ? apps.id : apis.id }, "u"));
    await createComponent(t.db, seed.ws, page.id, { name: "Billing (third party)", groupId: apis.id, staticStatus: "operational" }, "u");
    await seedHistory(
      t.db,
      seed.ws,
      seed.location.id,
      mons.map((m) => m.id),
      90,
      { [mons[1]!.id]: [3, 40], [mons[3]!.id]: [12] },
    );
    for (const m of mons) await reportCheck(t.db, seed.location, m.id, "success");
    const r = await createStatusReport(
      t.db,
      seed.ws,
      {
        pageId: page.id,
        title: "Webhook deliveries delayed",
        message: "Some webhook deliveries are delayed by up to 10 minutes. No events are lost.",
        date: Date.now() - 40 * 60_000,
        components: [{ componentId: comps[3]!.id, impact: "degraded" }],
      },
      "u",
    );
    await addStatusReportUpdate(
      t.db,
      seed.ws,
      r.id,
      {
        status: "identified",
        message: "A queue consumer fell behind after a configuration change; we are scaling it up.",
        date: Date.now() - 15 * 60_000,
      },
      "u",
    );
    await createMaintenance(
      t.db,
      seed.ws,
      {
        pageId: page.id,
        title: "Database upgrade",
        message: "The dashboard may be read-only for up to 5 minutes.",
        startsAt: Date.now() + 2 * 86_400_000,
        endsAt: Date.now() + 2 * 86_400_000 + 3_600_000,
        components: [comps[2]!.id],
      },
      "u",
    );

    const { ctx, p } = await onceReportShows("/northwind", "Webhook deliveries delayed");
    const bars = p.locator("li.b");
    expect(await bars.count()).toBe(4 * 90);
    await p.screenshot({ path: join(SHOTS, "status-page-desktop.png"), fullPage: true });

    // Keyboard: tab onto the API row's bar of 3 days ago and its text shows.
    const apiBar = p.locator("ul.bars").nth(1).locator("li").nth(86);
    await apiBar.focus();
    const tip = await apiBar.evaluate((el) => {
      const s = getComputedStyle(el, "::after");
      return { visibility: s.visibility, text: s.content };
    });
    expect(tip.visibility).toBe("visible");
    expect(tip.text).toMatch(/uptime \(\d+\/\d+ checks\)/);
    expect(tip.text).toMatch(/75\.00% uptime/);
    await p.screenshot({ path: join(SHOTS, "status-page-bar-focus.png"), clip: { x: 0, y: 0, width: 1280, height: 800 } });
    await p.mouse.move(0, 0);
    const hoverBar = p.locator("ul.bars").nth(3).locator("li").nth(89);
    await hoverBar.hover();
    const hoverTip = await hoverBar.evaluate((el) => getComputedStyle(el, "::after").content);
    expect(hoverTip).toContain("Degraded performance: Webhook deliveries delayed");

    const phone = await noJs({ width: 390, height: 844 });
    const pp = await phone.newPage();
    await pp.goto(`${site.url}/northwind`);
    await pp.screenshot({ path: join(SHOTS, "status-page-phone.png"), fullPage: true });
    await phone.close();

    const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark", javaScriptEnabled: false });
    const dp = await dark.newPage();
    await dp.goto(`${site.url}/northwind`);
    await dp.screenshot({ path: join(SHOTS, "status-page-dark.png") });
    await dark.close();

    await p.goto(`${site.url}/northwind/history`);
    expect(await p.getByText("Webhook deliveries delayed").count()).toBe(1);
    await ctx.close();
  });
});
