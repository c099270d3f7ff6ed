// What an attacker tries against private pages and the site's caches, on the real status page and sqld.
import { join } from "node:path";
import { createComponent, createStatusPage, createStatusReport, listSubscribers, sendSubscriberMails, updateStatusPage } from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { NotifierEnv } from "@vigil/notifier";
import { launchChromium } from "@vigil/testing/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailApi, ROOT, type SeededSite, type StatusSite, send, startSiteWithMail, until } from "./testing";

/** The site believes X-Forwarded-For only from this address (a reverse proxy the operator named). */
const PROXY = "127.0.0.4";

let t: TestDatabase;
let site: StatusSite;
let mailApi: MailApi;
let seed: SeededSite["seed"];
let mailEnv: NotifierEnv;
let port: number;

beforeAll(async () => {
  let env: Record<string, string>;
  ({ t, site, seed, mailApi, env, port } = await startSiteWithMail({
    TRUSTED_PROXIES: `${PROXY}/32`,
    REDIS_URL: "redis://127.0.0.1:6379",
  }));
  mailEnv = NotifierEnv.parse(env);
}, 600_000);

afterAll(async () => {
  await site?.stop();
  await mailApi?.close();
  await t?.close();
});

const protectedPage = async (slug: string, password: string) => {
  const page = await createStatusPage(t.db, seed.ws, { slug, title: `${slug} Co`, password }, "u");
  await createComponent(t.db, seed.ws, page.id, { name: "Internal API" }, "u");
  return page;
};

const unlock = (slug: string, password: string, from?: string, headers: Record<string, string> = {}) =>
  send(site.url, `/${slug}/unlock`, { form: { password }, from, headers });

/** The access cookie a right password sets, as `name=value`. */
async function accessCookie(slug: string, password: string): Promise<string> {
  const res = await unlock(slug, password);
  const set = [res.headers["set-cookie"] ?? []].flat()[0];
  expect(set, "the right password sets the access cookie").toBeTruthy();
  return set!.split(";")[0]!;
}

const subscribeTo = (slug: string, email: string, cookie?: string) =>
  send(site.url, `/${slug}/subscribe`, { form: { email }, headers: cookie ? { cookie } : {} });

/** Subscribes and presses the confirm button of the mailed link. */
async function subscribeAndConfirm(slug: string, email: string, cookie?: string) {
  const before = mailApi.mails.length;
  expect((await subscribeTo(slug, email, cookie)).headers.location).toContain("subscribe=sent");
  const mail = await until("the confirmation mail", () => mailApi.mails.slice(before).find((m) => m.to[0] === email));
  const token = new URL(/Confirm: (\S+)/.exec(mail.text)![1]!).searchParams.get("token")!;
  expect((await send(site.url, "/confirm/submit", { form: { token } })).status).toBe(303);
}

describe("private pages stay private", () => {
  it("subscribing to a password-protected page without its cookie is refused", async () => {
    const page = await protectedPage("closed-sub", "sub pass 42");
    const before = mailApi.mails.length;
    const res = await subscribeTo("closed-sub", "outsider@example.com");
    expect(res.status).toBe(404);
    // A forged cookie is no better.
    expect((await subscribeTo("closed-sub", "outsider@example.com", `vigil_page_${page.id}=${Date.now() + 9e9}.AAAA`)).status).toBe(404);
    expect(await listSubscribers(t.db, seed.ws, page.id)).toEqual([]);
    expect(mailApi.mails.slice(before)).toEqual([]);

    const cookie = await accessCookie("closed-sub", "sub pass 42");
    expect((await subscribeTo("closed-sub", "insider@example.com", cookie)).headers.location).toBe("/closed-sub?subscribe=sent#subscribe");
    expect((await listSubscribers(t.db, seed.ws, page.id)).map((s) => s.email)).toEqual(["insider@example.com"]);
  });

  it("a protected page's incident mail goes only to subscribers who proved access", async () => {
    // Subscribed while the page was public: never proved the password set afterwards.
    const page = await createStatusPage(t.db, seed.ws, { slug: "went-private", title: "Went Private" }, "u");
    await subscribeAndConfirm("went-private", "early@example.com");
    await updateStatusPage(t.db, seed.ws, page.id, { password: "first pass 42" }, "u");
    await until("the page asks for its password", async () => (await send(site.url, "/went-private/status.json")).status === 404);
    await subscribeAndConfirm("went-private", "insider@example.com", await accessCookie("went-private", "first pass 42"));

    const before = mailApi.mails.length;
    await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Private outage", message: "Internal details." }, "u");
    await sendSubscriberMails(t.db, mailEnv, { publicUrl: site.url });
    expect(mailApi.mails.slice(before).map((m) => m.to[0])).toEqual(["insider@example.com"]);

    // A new password: those who knew only the old one get no more of its mail until they subscribe with the new one.
    await updateStatusPage(t.db, seed.ws, page.id, { password: "second pass 42" }, "u");
    const later = mailApi.mails.length;
    await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Second private outage", message: "More details." }, "u");
    await sendSubscriberMails(t.db, mailEnv, { publicUrl: site.url });
    expect(mailApi.mails.slice(later)).toEqual([]);
  });

  it("a visitor reading a protected page in German stays in German through a wrong and then the right password", async () => {
    await protectedPage("closed-lang", "lang pass 42");
    const browser = await launchChromium();
    try {
      const ctx = await browser.newContext({ javaScriptEnabled: false, locale: "en-US" });
      const p = await ctx.newPage();
      await p.goto(`${site.url}/closed-lang?lang=de`);
      await p.getByLabel("Passwort").fill("not it");
      await p.getByRole("button", { name: "Status ansehen" }).click();
      await p.getByText("Das Passwort ist nicht richtig.").waitFor();
      expect(new URL(p.url()).searchParams.get("lang")).toBe("de");
      await p.getByLabel("Passwort").fill("lang pass 42");
      await p.getByRole("button", { name: "Status ansehen" }).click();
      await p.getByText("Updates per E-Mail erhalten").waitFor();
      expect(new URL(p.url()).pathname).toBe("/closed-lang");
      expect(new URL(p.url()).searchParams.get("lang")).toBe("de");
      await ctx.close();
    } finally {
      await browser.close();
    }
    // Without ?lang the answer carries none: the page keeps choosing by the browser's languages.
    expect((await unlock("closed-lang", "lang pass 42")).headers.location).toBe("/closed-lang");
  });

  it("a protected status.json is never publicly cacheable", async () => {
    await protectedPage("closed-json", "json pass 42");
    const cookie = await accessCookie("closed-json", "json pass 42");
    for (const path of ["/closed-json/status.json", "/closed-json/rss", "/closed-json/atom", "/closed-json/badge.svg"]) {
      const authorised = await send(site.url, path, { headers: { cookie } });
      expect(authorised.status, path).toBe(200);
      expect(authorised.headers["cache-control"], path).toBe("private, no-store");
      expect(authorised.headers.vary, path).toContain("cookie");
    }
    const refused = await send(site.url, "/closed-json/status.json");
    expect(refused.status).toBe(404);
    expect(refused.headers["cache-control"]).toBe("private, no-store");
    // An open page's JSON stays cacheable.
    await createStatusPage(t.db, seed.ws, { slug: "open-json", title: "Open JSON" }, "u");
    expect((await send(site.url, "/open-json/status.json")).headers["cache-control"]).toMatch(/^public, /);
  });

  it("wrong passwords from one client never lock out the right password from another", async () => {
    await protectedPage("closed-lock", "lock pass 42");
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await unlock("closed-lock", `guess ${i}`, "127.0.0.2")).headers.location);
    expect(answers.slice(0, 5).every((l) => String(l).includes("auth=wrong"))).toBe(true);
    expect(answers.slice(5).every((l) => String(l).includes("auth=locked"))).toBe(true);
    // The guesser stays locked out, the right password included: it cannot go on guessing.
    const guesser = await unlock("closed-lock", "lock pass 42", "127.0.0.2");
    expect(guesser.headers.location).toContain("auth=locked");
    expect(guesser.headers["set-cookie"]).toBeUndefined();
    const visitor = await unlock("closed-lock", "lock pass 42", "127.0.0.3");
    expect(visitor.headers.location).toBe("/closed-lock");
    expect([visitor.headers["set-cookie"]].flat()[0]).toMatch(/^vigil_page_\d+=/);
  });

  it("a forged X-Forwarded-For does not spread the lockout", async () => {
    await protectedPage("closed-xff", "xff pass 42");
    // One client, a different forged address each time: still one client, locked after five.
    for (let i = 0; i < 5; i++)
      expect((await unlock("closed-xff", `guess ${i}`, "127.0.0.5", { "x-forwarded-for": `198.51.100.${i}` })).headers.location).toContain(
        "auth=wrong",
      );
    const forged = await unlock("closed-xff", "xff pass 42", "127.0.0.5", { "x-forwarded-for": "198.51.100.200" });
    expect(forged.headers.location).toContain("auth=locked");
    // Naming another client's address locks nobody else out.
    for (let i = 0; i < 6; i++) await unlock("closed-xff", `guess ${i}`, "127.0.0.6", { "x-forwarded-for": "127.0.0.7" });
    expect((await unlock("closed-xff", "xff pass 42", "127.0.0.7")).headers.location).toBe("/closed-xff");

    // Behind the proxy the operator named, each forwarded client counts on its own.
    for (let i = 0; i < 6; i++) await unlock("closed-xff", `guess ${i}`, PROXY, { "x-forwarded-for": "203.0.113.50" });
    expect((await unlock("closed-xff", "xff pass 42", PROXY, { "x-forwarded-for": "203.0.113.50" })).headers.location).toContain(
      "auth=locked",
    );
    expect((await unlock("closed-xff", "xff pass 42", PROXY, { "x-forwarded-for": "203.0.113.51" })).headers.location).toBe("/closed-xff");
  });
});

describe("the site's caches serve only known hosts", () => {
  it("a random Host header gets a 404 and does not enter the cache", async () => {
    await createStatusPage(t.db, seed.ws, { slug: "hosted", title: "Hosted Co" }, "u");
    expect((await send(site.url, "/hosted")).headers["x-vigil-cache"]).toBe("miss");
    for (let i = 0; i < 2; i++)
      for (const host of ["random-1.example", "random-2.example:8080", "10.9.8.7"]) {
        const res = await send(site.url, "/hosted", { headers: { host } });
        expect(res.status, host).toBe(404);
        expect(res.headers["x-vigil-cache"], host).toBeUndefined();
        expect(res.body).not.toContain("Hosted Co");
      }
    // A forged X-Forwarded-Host is a random host too.
    expect((await send(site.url, "/hosted", { headers: { "x-forwarded-host": "evil.example" } })).status).toBe(404);
    // The real page kept its one copy, whatever port or loopback name it is asked under.
    expect((await send(site.url, "/hosted")).headers["x-vigil-cache"]).toBe("hit");
    expect((await send(site.url, "/hosted", { headers: { host: `localhost:${port}` } })).headers["x-vigil-cache"]).toBe("hit");
  });

  it("a feed's links use the configured public URL whatever the Host header says", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "feedy", title: "Feedy" }, "u");
    const r = await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Feed outage", message: "Looking." }, "u");
    const headers = { host: `localhost:${port}`, "x-forwarded-proto": "https" };
    for (const path of ["/feedy/rss", "/feedy/atom", "/feedy/status.json"]) {
      const res = await send(site.url, path, { headers });
      expect(res.status, path).toBe(200);
      expect(res.body, path).toContain(`http://127.0.0.1:${port}/feedy`);
      expect(res.body, path).not.toContain("localhost");
      expect(res.body, path).not.toContain("https://127.0.0.1");
    }
    expect((await send(site.url, "/feedy/rss", { headers })).body).toContain(`http://127.0.0.1:${port}/feedy/reports/${r.id}`);
    expect((await send(site.url, "/feedy/rss", { headers: { "x-forwarded-host": "evil.example" } })).status).toBe(404);
  });
});

describe("mail links act only on a button press", () => {
  it("a GET of the confirm link confirms nothing; the POST does", async () => {
    const page = await createStatusPage(t.db, seed.ws, { slug: "scanned", title: "Scanned Co" }, "u");
    const before = mailApi.mails.length;
    await subscribeTo("scanned", "reader@example.com");
    const mail = await until("the confirmation mail", () => mailApi.mails.slice(before).find((m) => m.to[0] === "reader@example.com"));
    const confirmUrl = /Confirm: (\S+)/.exec(mail.text)![1]!;
    const state = async () => (await listSubscribers(t.db, seed.ws, page.id))[0]!.state;

    // A mail scanner opens the link (twice): nothing changes.
    for (let i = 0; i < 2; i++) expect((await fetch(confirmUrl)).status).toBe(200);
    expect(await state()).toBe("pending");

    // The visitor presses the button (JavaScript off).
    const browser = await launchChromium();
    try {
      const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 600 } });
      const p = await ctx.newPage();
      await p.goto(confirmUrl);
      await expect(p.locator("h1").textContent()).resolves.toBe("Confirm your subscription");
      await p.screenshot({ path: join(ROOT, "docs/screenshots/status-page-confirm.png") });
      await p.click("button[type=submit]");
      await expect(p.locator("h1").textContent()).resolves.toBe("You are subscribed");
      expect(await state()).toBe("confirmed");

      await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Scanned outage", message: "Looking." }, "u");
      const sentFrom = mailApi.mails.length;
      await sendSubscriberMails(t.db, mailEnv, { publicUrl: site.url });
      const unsubscribeUrl = /Unsubscribe: (\S+)/.exec(mailApi.mails[sentFrom]!.text)![1]!;
      for (let i = 0; i < 2; i++) expect((await fetch(unsubscribeUrl)).status).toBe(200);
      expect(await state()).toBe("confirmed");
      await p.goto(unsubscribeUrl);
      await p.click("button[type=submit]");
      await expect(p.locator("h1").textContent()).resolves.toBe("You are unsubscribed");
      expect(await state()).toBe("unsubscribed");
      // A cross-site POST without the token changes nothing.
      expect((await send(site.url, "/unsubscribe/submit", { form: { token: "" } })).status).toBe(303);
      await ctx.close();
    } finally {
      await browser.close();
    }
  });
});
