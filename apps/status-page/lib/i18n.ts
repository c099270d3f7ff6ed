import { chooseLocale, isLocale, type Locale, type Translator, translator } from "@vigil/core/i18n";
import { headers } from "next/headers";

/** Set by the proxy on every request it passes on (a visitor's own value is replaced): the language to render in. */
export const LOCALE_HEADER = "x-vigil-locale";

/** The language the proxy chose for this request: `?lang=`, then Accept-Language, then the page's. */
export function localeOf(url: URL, acceptLanguage: string | null, pageLanguage: Locale = "en"): Locale {
  return chooseLocale({ lang: url.searchParams.get("lang"), acceptLanguage, pageLanguage });
}

/** The translator for the current request (server components and metadata). */
export async function currentTranslator(): Promise<Translator> {
  const chosen = (await headers()).get(LOCALE_HEADER);
  return translator(isLocale(chosen) ? chosen : "en");
}
