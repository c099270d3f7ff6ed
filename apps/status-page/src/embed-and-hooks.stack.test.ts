import { createHmac } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  createComponent,
  createStatusPage,
  createStatusReport,
  listSubscribers,
  SIGNATURE_HEADER,
  sendSubscriberMails,
  updateStatusPage,
  verifyEndpointSubscribers,
} from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { EgressPolicy } from "@vigil/egress";
import { NotifierEnv } from "@vigil/notifier";
import { metricsHeaders } from "@vigil/testing";
import { launchChromium } from "@vigil/testing/browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, type SeededSite, type StatusSite, send, startSite, until } from "./testing";

const SHOTS = join(ROOT, "docs/screenshots");

let t: TestDatabase;
let site: StatusSite;
let browser: Browser;
let seed: SeededSite["seed"];

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A loopback server: a subscriber's webhook (records bytes, echoes challenges) or another site's page. */
async function loopback(handle: (path: string, r: Received) => { status: number; type: string; body: string }) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks) };
      if (req.method === "POST") got.push(r);
      const a = handle(req.url ?? "/", r);
      res.writeHead(a.status, { "content-type": a.type }).end(a.body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    got,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

beforeAll(async () => {
  ({ t, site, seed } = await startSite(() => ({
    // The same key as this test process: both read the subscriber's encrypted secret.
    VIGIL_SECRET_KEY: process.env.VIGIL_SECRET_KEY!,
  })));
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
  const page = await createStatusPage(t.db, seed.ws, { slug: "shop", title: "Shop" }, "u");
  await createComponent(t.db, seed.ws, page.id, { name: "Checkout" }, "u");
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await t?.close();
});

describe("embeds", () => {
  it("another site frames the compact page and shows the script's status pill, the script under 5 kB", async () => {
    const embed = await send(site.url, "/shop/embed");
    expect(embed.status).toBe(200);
    expect(embed.body).not.toMatch(/<script\b/);
    expect(embed.headers["x-frame-options"]).toBeUndefined();
    const script = await send(site.url, "/shop/widget.js?lang=de");
    expect(script.headers["content-type"]).toMatch(/javascript/);
    expect(Buffer.byteLength(script.body)).toBeLessThan(5 * 1024);
    const other = await loopback(() => ({
      status: 200,
      type: "text/html",
      body: `<!doctype html><html><body style="font-family:sans-serif;padding:16px"><h1>Our shop</h1>
<p>Status: <script src="${site.url}/shop/widget.js" async></script></p>
<iframe src="${site.url}/shop/embed" title="Shop status" style="border:0;width:420px;height:120px"></iframe></body></html>`,
    }));
    try {
      const ctx = await browser.newContext({ viewport: { width: 640, height: 320 } });
      const p = await ctx.newPage();
      await p.goto(other.url);
      await until(
        "the pill filled from status.json",
        async () => (await p.locator(".vigil-status-pill").getAttribute("data-indicator")) === "operational",
        10_000,
        200,
      );
      await expect(p.locator(".vigil-status-pill").textContent()).resolves.toBe("All systems operational");
      await expect(p.frameLocator("iframe").locator("[data-overall]").textContent()).resolves.toContain("All systems operational");
      await p.screenshot({ path: join(SHOTS, "status-page-embed.png") });
      await ctx.close();
    } finally {
      await other.close();
    }
  });
});

describe("what other sites may do with the pages", () => {
  const DENIED = { "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };
  const everywhere = { "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" };
  const headersOf = (r: { headers: IncomingHttpHeaders }) =>
    Object.fromEntries(
      ["content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"].map((h) => [h, r.headers[h]]),
    );

  it("no other site can frame or sniff the page, its history, its password and subscribe forms; the embed view alone may be framed", async () => {
    const locked = await createStatusPage(t.db, seed.ws, { slug: "shop-private", title: "Shop private", password: "frame me not 42" }, "u");
    await createComponent(t.db, seed.ws, locked.id, { name: "Vault" }, "u");
    // The second view of an open page comes from the rendered copy, answered before Next's router.
    await until(
      "a copy of the page served before Next",
      async () => (await send(site.url, "/shop")).headers["x-vigil-cache"] === "hit",
      20_000,
      200,
    );
    const answers = {
      page: await send(site.url, "/shop"),
      history: await send(site.url, "/shop/history"),
      passwordPrompt: await send(site.url, "/shop-private"),
      passwordForm: await send(site.url, "/shop-private/unlock", { form: { password: "wrong" }, from: "127.0.0.21" }),
      subscribeForm: await send(site.url, "/shop/subscribe", { form: { email: "framed@example.com" }, from: "127.0.0.22" }),
      unknownPage: await send(site.url, "/no-such-page"),
    };
    expect(answers.page.headers["x-vigil-cache"]).toBe("hit");
    for (const [name, res] of Object.entries(answers)) expect(headersOf(res), name).toEqual({ ...DENIED, ...everywhere });
    const embed = await send(site.url, "/shop/embed");
    // Its page lists no sites that may frame it: any may.
    expect(headersOf(embed)).toEqual({ "content-security-policy": "frame-ancestors *", "x-frame-options": undefined, ...everywhere });
  });

  it("once the page's admin lists the sites that may embed it, only they may frame the embed view, fresh or from the cached copy", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "shop-embedded", title: "Shop embedded" }, "u");
    await createComponent(t.db, seed.ws, page.id, { name: "Cart" }, "u");
    const listed = "frame-ancestors https://intranet.example.com http://wall.example.net:8080";
    const refused = await updateStatusPage(t.db, seed.ws, page.id, { embedOrigins: ["https://intranet.example.com/status"] }, "u").catch(
      (e: { issues?: { path: string; message: string }[] }) => e,
    );
    expect((refused as { issues?: unknown }).issues).toEqual([
      { path: "embedOrigins.0", message: "must be an origin such as https://intranet.example.com (scheme and host, no path)" },
    ]);
    await updateStatusPage(t.db, seed.ws, page.id, { embedOrigins: ["https://Intranet.example.com", "http://wall.example.net:8080"] }, "u");
    await until(
      "the embed's cached copy to name the listed sites",
      async () => {
        const res = await send(site.url, "/shop-embedded/embed");
        return res.headers["x-vigil-cache"] === "hit" && res.headers["content-security-policy"] === listed;
      },
      20_000,
      200,
    );
    const fresh = await send(site.url, "/shop-embedded/embed?lang=de&v=1");
    expect(fresh.headers["content-security-policy"]).toBe(listed);
    // The page itself is still framed by nobody.
    expect((await send(site.url, "/shop-embedded")).headers["content-security-policy"]).toBe("frame-ancestors 'none'");
  });

  it("a browser refuses to show the full page inside another site's frame, beside the embed it shows", async () => {
    const other = await loopback(() => ({
      status: 200,
      type: "text/html",
      body: `<!doctype html><html><body><iframe id="embed" src="${site.url}/shop/embed"></iframe><iframe id="full" src="${site.url}/shop"></iframe></body></html>`,
    }));
    const ctx = await browser.newContext();
    try {
      const p = await ctx.newPage();
      await p.goto(other.url);
      await expect(p.frameLocator("#embed").locator("[data-overall]").textContent()).resolves.toContain("All systems operational");
      // Both were asked for at once; the full page's frame stays empty.
      await p.waitForLoadState("load");
      expect(await p.frameLocator("#full").locator("[data-overall]").count()).toBe(0);
      expect(await (await send(site.url, "/shop")).body).toContain("data-overall");
    } finally {
      await ctx.close();
      await other.close();
    }
  });

  it("the site's /metrics answers only the operator's token", async () => {
    const anonymous = await send(site.url, "/metrics");
    expect([anonymous.status, anonymous.body]).toEqual([401, '/metrics needs "Authorization: Bearer <VIGIL_METRICS_TOKEN>"\n']);
    const scraped = await send(site.url, "/metrics", { headers: metricsHeaders() });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain("status_page_requests_total");
  });
});

describe("webhook subscribers from the page", () => {
  it("a visitor subscribes a webhook without JavaScript, is shown its secret once, and deliveries carry its signature", async () => {
    const hook = await loopback((_path, r) => {
      const body = JSON.parse(r.body.toString("utf8") || "{}") as { type?: string; challenge?: string };
      return {
        status: 200,
        type: "application/json",
        body: body.type === "subscription.verify" ? JSON.stringify({ challenge: body.challenge }) : "{}",
      };
    });
    try {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      const p = await ctx.newPage();
      await p.goto(`${site.url}/shop`);
      await p.locator("summary").click();
      await p.fill("input[name=url]", `${hook.url}/vigil`);
      await p.click("form:has(input[name=url]) button[type=submit]");
      await expect(p.locator("h1").textContent()).resolves.toBe("Your webhook is pending verification");
      const secret = (await p.locator("#secret").textContent())!;
      expect(secret).toMatch(/^whsec_/);
      await ctx.close();
      expect(hook.got).toHaveLength(0);

      // Workflows' job, with the operator's allow-list letting this loopback receiver through.
      const egress = await EgressPolicy.create({ publicOnly: { allow: ["127.0.0.0/8"] } });
      expect(await verifyEndpointSubscribers(t.db, { publicUrl: site.url, egress })).toMatchObject({ verified: 1 });
      const page = (await t.db.query.statusPage.findFirst({ where: (sp, { eq }) => eq(sp.slug, "shop") }))!;
      await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Card payments fail", message: "Investigating." }, "u");
      expect(await sendSubscriberMails(t.db, NotifierEnv.parse({}), { publicUrl: site.url, egress })).toMatchObject({
        sent: 1,
        failed: 0,
      });
      const delivery = hook.got.at(-1)!;
      expect(delivery.headers[SIGNATURE_HEADER]).toBe(`sha256=${createHmac("sha256", secret).update(delivery.body).digest("hex")}`);
      expect(JSON.parse(delivery.body.toString("utf8"))).toMatchObject({
        type: "incident.updated",
        incident: { title: "Card payments fail" },
      });
    } finally {
      await hook.close();
    }
  });

  it("a script probing loopback ports through subscriptions gets the same answer for an open port, a closed one and the database, and nothing is reached", async () => {
    const open = await loopback(() => ({ status: 404, type: "text/plain", body: "nope" }));
    const closed = await loopback(() => ({ status: 200, type: "text/plain", body: "" }));
    const closedUrl = closed.url;
    await closed.close();
    try {
      const page = await createStatusPage(t.db, seed.ws, { slug: "probed", title: "Probed" }, "u");
      const answers: unknown[] = [];
      for (const url of [
        `${open.url}/x`,
        `${closedUrl}/x`,
        `${process.env.DATABASE_URL ?? "http://127.0.0.1:8080"}/x`,
        "http://10.0.0.1/x",
      ]) {
        const res = await fetch(`${site.url}/probed/subscribe`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ channel: "webhook", url }),
        });
        expect(res.status, url).toBe(201);
        const body = (await res.json()) as Record<string, unknown>;
        answers.push({ ...body, subscriberId: "id", secret: typeof body.secret });
      }
      expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
        new Set([JSON.stringify({ subscriberId: "id", channel: "webhook", secret: "string", state: "pending_verification" })]),
      );
      expect(open.got).toHaveLength(0);
      // The default policy of workflows: public addresses only; the page's admins see each real reason.
      await verifyEndpointSubscribers(t.db, { publicUrl: site.url, egress: await EgressPolicy.create({ publicOnly: {} }) });
      expect(open.got).toHaveLength(0);
      const seen = await listSubscribers(t.db, seed.ws, page.id);
      for (const s of seen)
        expect(s.verificationError).toMatch(/is a (loopback|private network) address \(.*\), not a public one; refused$/);
    } finally {
      await open.close();
    }
  });

  it("a script's bad subscription is answered 400 naming the field and rule", async () => {
    const res = await fetch(`${site.url}/shop/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ channel: "pager", url: "not a url" }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.issues).toEqual([
      { path: "channel", message: "must be one of webhook, slack" },
      { path: "url", message: "must be an http:// or https:// URL" },
    ]);
  });

  it("a Slack subscription to a URL off Slack's webhook host is refused, naming the hosts in the form and in the JSON answer", async () => {
    const elsewhere = await loopback(() => ({ status: 200, type: "text/plain", body: "ok" }));
    try {
      const res = await fetch(`${site.url}/shop/subscribe`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channel: "slack", url: `${elsewhere.url}/services/T/B/x` }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.issues).toEqual([
        {
          path: "url",
          message: "must be a Slack incoming-webhook URL starting with https://hooks.slack.com/ or https://hooks.slack-gov.com/",
        },
      ]);
      const form = await send(site.url, "/shop/subscribe?lang=en", { form: { channel: "slack", url: `${elsewhere.url}/services/T/B/x` } });
      expect(form.headers.location).toContain("subscribe=invalidSlackUrl");
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      const p = await ctx.newPage();
      await p.goto(`${site.url}${form.headers.location}`);
      await expect(
        p.getByText("A Slack subscription needs an incoming-webhook URL starting with https://hooks.slack.com/").isVisible(),
      ).resolves.toBe(true);
      await ctx.close();
      expect(elsewhere.got).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});
