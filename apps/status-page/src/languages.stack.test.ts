import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  addStatusReportUpdate,
  CATALOGS,
  createComponent,
  createComponentGroup,
  createMaintenance,
  createStatusPage,
  createStatusReport,
  LOCALES,
  type MessageKey,
} from "@vigil/core";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { launchChromium } from "@vigil/testing/browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MailApi,
  newMonitor,
  ROOT,
  reportCheck,
  type SeededSite,
  type StatusSite,
  seedHistory,
  send,
  startSiteWithMail,
  until,
} from "./testing";

const SHOTS = join(ROOT, "docs/screenshots");
const en = CATALOGS.en;

let t: TestDatabase;
let site: StatusSite;
let mailApi: MailApi;
let browser: Browser;
let seed: SeededSite["seed"];

beforeAll(async () => {
  ({ t, site, seed, mailApi } = await startSiteWithMail());
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });

  // A page that uses nearly every message: groups, bars with history, an open and a resolved incident, maintenance.
  const page = await createStatusPage(t.db, seed.ws, { slug: "welt", title: "Weltweit", language: "fr" }, "u");
  const group = await createComponentGroup(t.db, seed.ws, page.id, { name: "Plattform" }, "u");
  const api = await newMonitor(t.db, seed.ws, "API");
  await createComponent(t.db, seed.ws, page.id, { name: "REST-API", monitorId: api.id, groupId: group.id }, "u");
  await createComponent(t.db, seed.ws, page.id, { name: "Webseite", staticStatus: "degraded" }, "u");
  await seedHistory(t.db, seed.ws, seed.location.id, [api.id], 30, { [api.id]: [3] });
  await reportCheck(t.db, seed.location, api.id, "success");
  const open = await createStatusReport(t.db, seed.ws, { pageId: page.id, title: "Langsame Antworten", message: "Wir prüfen es." }, "u");
  await addStatusReportUpdate(t.db, seed.ws, open.id, { status: "identified", message: "Ein Index fehlt." }, "u");
  const old = await createStatusReport(
    t.db,
    seed.ws,
    { pageId: page.id, title: "Anmeldung gestört", message: "Wir prüfen es.", date: Date.now() - 2 * 86_400_000 },
    "u",
  );
  await addStatusReportUpdate(t.db, seed.ws, old.id, { status: "resolved", message: "Behoben.", date: Date.now() - 86_400_000 }, "u");
  await createMaintenance(
    t.db,
    seed.ws,
    {
      pageId: page.id,
      title: "Datenbank-Upgrade",
      message: "Kurze Pause.",
      startsAt: Date.now() + 86_400_000,
      endsAt: Date.now() + 90_000_000,
    },
    "u",
  );
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await mailApi?.close();
  await t?.close();
});

/** What a visitor reads or hears: text, plus the labels of bars and fields; no markup, style or class names. */
const readable = (html: string) =>
  html
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]*?\b(?:aria-label|title|placeholder|content)="([^"]*)"[^>]*>/g, " $1 ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&#10;/g, "\n")
    .replace(/&amp;/g, "&");

/** English words of the catalog that a page in `locale` must not show: each message's literal text, where it differs. */
function englishLeftovers(text: string, locale: (typeof LOCALES)[number]): string[] {
  const found: string[] = [];
  for (const key of Object.keys(en) as MessageKey[]) {
    if (CATALOGS[locale][key] === en[key]) continue;
    for (const piece of en[key].split(/\{\w+\}/))
      if (piece.trim().length >= 6 && text.includes(piece.trim())) found.push(`${key}: "${piece.trim()}"`);
  }
  return found;
}

const KEY_SHAPED = new RegExp(`\\b(?:${[...new Set(Object.keys(en).map((k) => k.split(".")[0]))].join("|")})\\.[a-zA-Z_]+\\b`);

describe("status pages in the visitor's language", () => {
  it("every language renders the whole page with no untranslated message and no script", async () => {
    for (const locale of LOCALES) {
      const res = await send(site.url, `/welt?lang=${locale}`);
      expect(res.status, locale).toBe(200);
      expect(res.body, locale).toContain(`<html lang="${locale}"`);
      expect(res.body, locale).not.toMatch(/<script\b/);
      const text = readable(res.body);
      expect(text, locale).toContain("Langsame Antworten"); // incident text stays as written
      expect(text.match(KEY_SHAPED)?.[0] ?? null, `${locale}: a message key instead of its text`).toBeNull();
      if (locale !== "en") expect(englishLeftovers(text, locale), locale).toEqual([]);
      for (const key of ["page.activeIncidents", "page.maintenance", "page.components", "page.pastIncidents", "subscribe.title"] as const)
        expect(text, `${locale} ${key}`).toContain(CATALOGS[locale][key]);
    }
  });

  it("a browser asking for German gets German, one asking for Korean gets the page's French, and ?lang overrides both", async () => {
    const de = await send(site.url, "/welt", { headers: { "accept-language": "de-DE,de;q=0.9,en;q=0.5" } });
    expect(de.body).toContain('<html lang="de"');
    expect(readable(de.body)).toContain("Aktuelle Störungen");
    expect(String(de.headers.vary)).toMatch(/accept-language/i);
    expect(de.headers["content-language"] ?? "de").toBe("de");
    // The copy kept for German browsers is not served to others.
    const ko = await send(site.url, "/welt", { headers: { "accept-language": "ko-KR,ko;q=0.9" } });
    expect(ko.body).toContain('<html lang="fr"');
    expect(readable(ko.body)).toContain("Incidents en cours");
    const ja = await send(site.url, "/welt?lang=ja", { headers: { "accept-language": "de-DE" } });
    expect(readable(ja.body)).toContain("発生中の障害");
    const unknown = await send(site.url, "/welt?lang=xx", { headers: { "accept-language": "ko" } });
    expect(unknown.body).toContain('<html lang="fr"');
    const again = await send(site.url, "/welt", { headers: { "accept-language": "de" } });
    expect(again.body).toContain('<html lang="de"');
  });

  it("?lang= pages are the shared German copy a German browser gets, kept and public; a protected page with ?lang= stays private", async () => {
    // "welt" was rendered above; a page of its own so that the first answer is the render.
    const page = await createStatusPage(t.db, seed.ws, { slug: "sprache", title: "Sprache", language: "fr" }, "u");
    await createComponent(t.db, seed.ws, page.id, { name: "Kern" }, "u");
    const byQuery = [await send(site.url, "/sprache?lang=de"), await send(site.url, "/sprache?lang=DE")];
    expect(byQuery.map((r) => r.headers["x-vigil-cache"])).toEqual(["miss", "hit"]);
    const byBrowser = await send(site.url, "/sprache", { headers: { "accept-language": "de-DE,de;q=0.9" } });
    expect(byBrowser.headers["x-vigil-cache"]).toBe("hit");
    for (const res of [...byQuery, byBrowser]) {
      expect(res.status).toBe(200);
      expect(res.body).toContain('<html lang="de"');
      expect(res.body).not.toMatch(/<script\b/);
      expect(res.headers["cache-control"]).toBe("public, max-age=0, s-maxage=15, stale-while-revalidate=15");
      expect(res.headers["content-language"]).toBe("de");
    }
    expect(byBrowser.body).toBe(byQuery[0]!.body);
    // ?lang= wins over the browser's language, and the page's own stays its own copy.
    const ja = await send(site.url, "/sprache?lang=ja", { headers: { "accept-language": "de" } });
    expect(ja.body).toContain('<html lang="ja"');
    expect((await send(site.url, "/sprache")).body).toContain('<html lang="fr"');
    // Any other query is rendered for its visitor alone.
    const other = await send(site.url, "/sprache?lang=de&x=1");
    expect(other.body).toContain('<html lang="de"');
    expect(other.headers["x-vigil-cache"]).toBeUndefined();
    expect(other.headers["cache-control"]).toBe("private, no-store");

    await createStatusPage(t.db, seed.ws, { slug: "geheim", title: "Geheim", password: "geheim pass 42" }, "u");
    const unlock = await send(site.url, "/geheim/unlock", { form: { password: "geheim pass 42" }, from: "127.0.0.41" });
    const cookie = String(unlock.headers["set-cookie"]).split(";")[0]!;
    for (const [headers, prompt] of [
      [{}, true],
      [{ cookie }, false],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await send(site.url, "/geheim?lang=de", { headers });
        expect(res.status).toBe(200);
        expect(res.body).toContain('<html lang="de"');
        expect(res.body.includes('name="password"'), "the password prompt").toBe(prompt);
        expect(res.body).not.toMatch(/<script\b/);
        expect(res.headers["cache-control"]).toBe("private, no-store");
        expect(res.headers["x-vigil-cache"]).toBeUndefined();
      }
    }
  });

  it("a German visitor subscribes in German and gets the confirmation mail and page in German", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, locale: "de-DE" });
    const p = await ctx.newPage();
    await p.goto(`${site.url}/welt`);
    await p.fill("input[name=email]", "leser@example.com");
    await p.click("button[type=submit]");
    await expect(p.getByRole("status").textContent()).resolves.toContain("Fast geschafft");
    await until("the confirmation mail", async () => mailApi.mails.some((m) => m.to.includes("leser@example.com")), 10_000, 200);
    const mail = mailApi.mails.find((m) => m.to.includes("leser@example.com"))!;
    expect(mail.subject).toBe("Bestätigen Sie Ihr Abonnement von Weltweit");
    const link = /Bestätigen: (\S+)/.exec(mail.text)![1]!;
    // Opened in another browser: the link itself carries the language.
    const other = await browser.newContext({ javaScriptEnabled: false, locale: "en-US" });
    const q = await other.newPage();
    await q.goto(link);
    await expect(q.locator("h1").textContent()).resolves.toBe("Abonnement bestätigen");
    await q.click("button[type=submit]");
    await expect(q.locator("h1").textContent()).resolves.toBe("Sie haben abonniert");
    await other.close();
    await ctx.close();
  });

  it("screenshots: a German and a Japanese page", async () => {
    for (const locale of ["de", "ja"] as const) {
      const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 1500 } });
      const p = await ctx.newPage();
      await p.goto(`${site.url}/welt?lang=${locale}`);
      await p.screenshot({ path: join(SHOTS, `status-page-${locale}.png`), fullPage: true });
      await ctx.close();
    }
  });
});
