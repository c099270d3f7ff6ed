// Which hosts this site answers for. Page views on any other host are a 404 that never touches the render
// cache: a random Host header must not evict real pages nor make the site render for it.
import { type Locale, localeFromParam, preferredLocale } from "@vigil/core/i18n";
import { getEnv } from "./env";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The host a request came to: lower case, without port (X-Forwarded-Host first, as a reverse proxy sets it). */
export function requestHost(forwardedHost: string | null | undefined, host: string | null | undefined): string {
  const raw = (forwardedHost || host || "").split(",")[0]!.trim().toLowerCase();
  return raw.startsWith("[") ? raw.replace(/(\])(:\d+)?$/, "$1") : raw.replace(/:\d+$/, "");
}

let publicHost: string | undefined;
/** The configured public host (PUBLIC_URL) or loopback, where pages are served under their slug. */
export function isPublicHost(host: string): boolean {
  publicHost ??= new URL(getEnv().PUBLIC_URL).hostname.toLowerCase();
  return host === publicHost || LOOPBACK.has(host);
}

/**
 * The render cache's key: every address of the public site shares one copy ("" + path); a custom domain
 * (known to the proxy before anything is stored) has its own; and each language its own, "" standing for
 * the page's language.
 */
const cacheKey = (host: string, path: string, language = "") => `${isPublicHost(host) ? "" : host}${path}|${language}`;

/**
 * The copy of a page view that visitors share: its key, and the language it is rendered in, chosen as the
 * page chooses it (lib/i18n.ts): `?lang=`, then Accept-Language, then the page's own (undefined). So
 * `?lang=de` and a German browser share one copy. Undefined for a query other than `?lang=`: that view is
 * rendered for its visitor alone.
 */
export function sharedCopy(
  host: string,
  path: string,
  search: string,
  acceptLanguage: string | null | undefined,
): { key: string; language?: Locale } | undefined {
  const query = new URLSearchParams(search);
  for (const name of query.keys()) if (name !== "lang") return undefined;
  const language = localeFromParam(query.get("lang")) ?? preferredLocale(acceptLanguage);
  return { key: cacheKey(host, path, language), language };
}
