// Which hosts this site answers for. Page views on any other host are a 404 that never touches the render
// cache: a random Host header must not evict real pages nor make the site render for it.
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
 * (known to the proxy before anything is stored) has its own; and each language the visitor's browser
 * prefers (see preferredLocale) its own, "" standing for the page's language.
 */
export const cacheKey = (host: string, path: string, preferred = "") => `${isPublicHost(host) ? "" : host}${path}|${preferred}`;
