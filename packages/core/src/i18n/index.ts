// Status pages, their subscription pages and subscriber mail in the visitor's language: ICU catalogs
// formatted by FormatJS on the server (nothing of it reaches the browser).
import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import { PAGE_LANGUAGES } from "@vigil/db-schema";
import Negotiator from "negotiator";
import { de } from "./messages/de";
import { en, type MessageKey, type Messages } from "./messages/en";
import { es } from "./messages/es";
import { fr } from "./messages/fr";
import { ja } from "./messages/ja";
import { ptBR } from "./messages/pt-BR";
import { zhCN } from "./messages/zh-CN";

export type { MessageKey, Messages };
export type Locale = (typeof PAGE_LANGUAGES)[number];
export const LOCALES: readonly Locale[] = PAGE_LANGUAGES;

export const CATALOGS: Record<Locale, Messages> = { en, de, fr, es, "pt-BR": ptBR, ja, "zh-CN": zhCN };

export const isLocale = (v: unknown): v is Locale => typeof v === "string" && (LOCALES as readonly string[]).includes(v);

/** Case-insensitive `?lang=` values ("pt-br", "zh-cn"); undefined when not one of ours. */
export function localeFromParam(v: string | null | undefined): Locale | undefined {
  if (!v) return undefined;
  const low = v.toLowerCase();
  return LOCALES.find((l) => l.toLowerCase() === low);
}

/**
 * The supported language the browser ranks highest, or undefined (then the page's own language is
 * shown). A bare "pt" or "zh" takes our regional variant; "*" says nothing.
 */
export function preferredLocale(acceptLanguage: string | null | undefined): Locale | undefined {
  if (!acceptLanguage) return undefined;
  const asked = new Negotiator({ headers: { "accept-language": acceptLanguage.slice(0, 500) } }).languages();
  for (const tag of asked) {
    if (tag === "*") continue;
    const exact = localeFromParam(tag);
    if (exact) return exact;
    const base = tag.split("-")[0]!.toLowerCase();
    const near = LOCALES.find((l) => l.split("-")[0]!.toLowerCase() === base);
    if (near) return near;
  }
  return undefined;
}

/** `?lang=` first (an unknown one is ignored), then Accept-Language, then the page's language. */
export function chooseLocale(opts: { lang?: string | null; acceptLanguage?: string | null; pageLanguage: Locale }): Locale {
  return localeFromParam(opts.lang) ?? preferredLocale(opts.acceptLanguage) ?? opts.pageLanguage;
}

export interface Translator {
  locale: Locale;
  intl: IntlShape<string>;
  t(key: MessageKey, values?: Record<string, string | number>): string;
  /** Like `t`, with values that are elements of the caller's markup (a bold address): text and elements in order. */
  rich<T>(key: MessageKey, values: Record<string, string | number | T>): string | T | (string | T)[];
  /** "27 Nov 2026, 16:20 UTC" in the locale's order and words. */
  dateTime(ms: number): string;
  date(ms: number): string;
  time(ms: number): string;
  /** 0.99944 → "99.94%", "99,94 %"…; from 0.99995 → "100%". */
  uptime(ratio: number): string;
  /** "A, B, C" in the locale's punctuation. */
  list(items: string[]): string;
}

const cache = createIntlCache();
const made = new Map<Locale, Translator>();

/**
 * One translator per language per process; a key missing from a catalog is a compile error (Messages).
 * Messages are compiled once per key and the date and number formats made once: a page of 20 components
 * formats ~1,800 day tips.
 */
export function translator(locale: Locale): Translator {
  const hit = made.get(locale);
  if (hit) return hit;
  const intl = createIntl<string>({ locale, messages: CATALOGS[locale], timeZone: "UTC" }, cache);
  const compiled = new Map<MessageKey, { format(values?: Record<string, unknown>): unknown }>();
  const message = (key: MessageKey) => {
    let mf = compiled.get(key);
    if (!mf) {
      // English stands in for a message a catalog lacks (the types and the catalog test forbid it).
      mf = intl.formatters.getMessageFormat(CATALOGS[locale][key] ?? en[key], locale, intl.formats, { formatters: intl.formatters });
      compiled.set(key, mf);
    }
    return mf;
  };
  const utc = { timeZone: "UTC" } as const;
  const dateTimeFmt = new Intl.DateTimeFormat(locale, {
    ...utc,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });
  const dateFmt = new Intl.DateTimeFormat(locale, { ...utc, year: "numeric", month: "short", day: "numeric" });
  const timeFmt = new Intl.DateTimeFormat(locale, { ...utc, hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
  const pctFmt = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const fullFmt = new Intl.NumberFormat(locale, { style: "percent" });
  const listFmt = new Intl.ListFormat(locale, { type: "unit", style: "short" });
  const tr: Translator = {
    locale,
    intl,
    t: (key, values) => String(message(key).format(values)),
    rich: <T>(key: MessageKey, values: Record<string, string | number | T>) => message(key).format(values) as string | T | (string | T)[],
    dateTime: (ms) => dateTimeFmt.format(ms),
    date: (ms) => dateFmt.format(ms),
    time: (ms) => timeFmt.format(ms),
    uptime: (ratio) => (ratio >= 0.99995 ? fullFmt.format(1) : pctFmt.format(ratio)),
    list: (items) => listFmt.format(items),
  };
  made.set(locale, tr);
  return tr;
}
