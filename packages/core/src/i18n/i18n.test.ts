import { describe, expect, it } from "vitest";
import { subscriberMailContent } from "../status/subscribers";
import { CATALOGS, chooseLocale, LOCALES, type MessageKey, preferredLocale, translator } from "./index";
import { en } from "./messages/en";

const placeholders = (msg: string) => [...msg.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();

/** Messages that read the same in a language as in English (names, loanwords, shared punctuation). */
const SAME_AS_ENGLISH: Partial<Record<string, MessageKey[]>> = {
  de: ["page.affectedComponent", "mail.details"],
  fr: ["page.affectedComponent", "page.maintenance", "bars.maintenance", "history.incidents"],
  es: ["page.affectedComponent"],
  "pt-BR": ["page.affectedComponent"],
  ja: ["shell.poweredBy"],
  "zh-CN": [],
};

describe("status page languages", () => {
  it("every language translates every message of the English catalog, with the same placeholders", () => {
    const problems: string[] = [];
    for (const locale of LOCALES) {
      if (locale === "en") continue;
      const catalog = CATALOGS[locale] as Record<string, string>;
      for (const key of Object.keys(en) as MessageKey[]) {
        const msg = catalog[key];
        if (typeof msg !== "string" || msg.trim() === "") problems.push(`${locale}: ${key} is missing`);
        else if (msg === en[key] && !SAME_AS_ENGLISH[locale]?.includes(key)) problems.push(`${locale}: ${key} is untranslated`);
        else if (placeholders(msg).join() !== placeholders(en[key]).join())
          problems.push(`${locale}: ${key} has {${placeholders(msg)}} instead of {${placeholders(en[key])}}`);
      }
      for (const key of Object.keys(catalog)) if (!(key in en)) problems.push(`${locale}: ${key} is not an English message`);
    }
    expect(problems).toEqual([]);
  });

  it("every message formats in every language without falling back to its key", () => {
    for (const locale of LOCALES) {
      const tr = translator(locale);
      for (const key of Object.keys(en) as MessageKey[]) {
        const values = Object.fromEntries(placeholders(en[key]).map((p) => [p, "X"]));
        const out = tr.t(key, values);
        expect(out, `${locale} ${key}`).not.toBe(key);
        expect(out, `${locale} ${key}`).not.toMatch(/\{\w+\}/);
      }
    }
  });

  it("?lang wins, then the browser's Accept-Language, then the page's own language; an unknown ?lang is ignored", () => {
    expect(chooseLocale({ lang: "ja", acceptLanguage: "de-DE,de;q=0.9", pageLanguage: "fr" })).toBe("ja");
    expect(chooseLocale({ lang: "pt-br", pageLanguage: "en" })).toBe("pt-BR");
    expect(chooseLocale({ lang: "klingon", acceptLanguage: null, pageLanguage: "fr" })).toBe("fr");
    expect(chooseLocale({ lang: "klingon", acceptLanguage: "es-MX,es;q=0.8", pageLanguage: "fr" })).toBe("es");
    expect(chooseLocale({ acceptLanguage: "ko-KR,ko;q=0.9", pageLanguage: "de" })).toBe("de");
    expect(preferredLocale("ko;q=0.9, zh;q=0.8, en;q=0.5")).toBe("zh-CN");
    expect(preferredLocale("pt-PT")).toBe("pt-BR");
    expect(preferredLocale("en-US,en;q=0.9,de;q=0.8")).toBe("en");
    expect(preferredLocale("*")).toBeUndefined();
    expect(preferredLocale("")).toBeUndefined();
  });

  it("a bar's time without any check result reads as no data in every language, never as uptime", () => {
    const words: Record<string, RegExp> = {
      en: /no data/i,
      de: /keine Daten/i,
      fr: /aucune donnée/i,
      es: /sin datos/i,
      "pt-BR": /sem dados/i,
      ja: /データなし/,
      "zh-CN": /无数据/,
    };
    for (const locale of LOCALES) {
      const tr = translator(locale);
      expect(tr.t("bars.dayNoChecks", { date: "X" }), locale).toMatch(words[locale]!);
      const gap = tr.t("bars.noData", { minutes: 42 });
      expect(gap, locale).toMatch(words[locale]!);
      expect(gap, locale).toContain("42");
    }
  });

  it("dates and uptime are written the way the visitor's language writes them", () => {
    const at = Date.UTC(2026, 10, 27, 16, 5);
    expect(translator("en").uptime(0.99944)).toBe("99.94%");
    expect(translator("de").uptime(0.99944)).toBe("99,94\u00a0%");
    expect(translator("fr").uptime(0.99944)).toMatch(/^99,94[\u00a0\u202f]%$/);
    expect(translator("en").uptime(0.99999)).toBe("100%");
    expect(translator("de").dateTime(at)).toBe("27. Nov. 2026, 16:05 UTC");
    expect(translator("ja").date(at)).toBe("2026年11月27日");
    expect(translator("en").time(at)).toBe("16:05 UTC");
  });

  it("a subscriber's mail is written in the language they subscribed in, and its links keep it", () => {
    const mail = {
      subscriberId: 1,
      channel: "email" as const,
      email: "a@example.com",
      url: null,
      secret: null,
      unsubscribeToken: "tok",
      kind: "maintenance" as const,
      refId: 3,
      page: { id: 1, slug: "acme", title: "Acme" },
      language: "de" as const,
      title: "Datenbank-Upgrade",
      status: null,
      message: "Wir aktualisieren die Datenbank.",
      reportId: null,
      startsAt: Date.UTC(2026, 10, 28, 10),
      endsAt: Date.UTC(2026, 10, 28, 12),
      attempts: 0,
    };
    const de = subscriberMailContent(mail, "https://status.example.com");
    expect(de.subject).toBe("[Acme] Geplante Wartung: Datenbank-Upgrade (28. Nov. 2026, 10:00 UTC bis 28. Nov. 2026, 12:00 UTC)");
    expect(de.text).toContain("Sie erhalten diese Mail, weil Sie Acme abonniert haben.");
    expect(de.unsubscribeUrl).toBe("https://status.example.com/unsubscribe?token=tok&lang=de");
    const update = subscriberMailContent(
      { ...mail, kind: "report_update", status: "identified", reportId: 9, language: "ja" },
      "https://s.test",
    );
    expect(update.subject).toBe("[Acme] 原因特定: Datenbank-Upgrade");
    expect(update.link).toBe("https://s.test/acme/reports/9?lang=ja");
  });
});
