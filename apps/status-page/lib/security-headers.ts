// What every status-page answer tells the browser: no type sniffing, no full URL in Referer to other sites,
// and no framing by other sites except the embed view, which exists to be framed.

/** The compact view made for iframes: `/<slug>/embed`, or `/embed` on a page's custom domain. */
const EMBED = /^\/[a-z0-9-]+\/embed\/?$/i;
const EMBED_ON_DOMAIN = /^\/embed\/?$/;

/** Whether `pathname` is the embed view; `customDomain`: the request came on a page's own domain. */
export const isEmbed = (pathname: string, customDomain: boolean) => (customDomain ? EMBED_ON_DOMAIN : EMBED).test(pathname);

/** The page's slug in an embed path on our own host (`/<slug>/embed`). */
export const embedSlug = (pathname: string) => pathname.split("/")[1] ?? "";

/**
 * Who may frame the embed view: the origins the page's admin listed, or any site when none are (the widget's
 * purpose; the view shows nothing a visitor could be tricked into acting on, and links open in the top window).
 */
export const frameAncestors = (embedOrigins: readonly string[] | undefined) =>
  embedOrigins && embedOrigins.length > 0 ? embedOrigins.join(" ") : "*";

/** The headers for an answer at `pathname`; `embedOrigins`: the page's allowed framers, for the embed view. */
export function securityHeaders(pathname: string, customDomain: boolean, embedOrigins?: readonly string[]): Record<string, string> {
  const common = { "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" };
  if (isEmbed(pathname, customDomain)) return { ...common, "content-security-policy": `frame-ancestors ${frameAncestors(embedOrigins)}` };
  return { ...common, "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };
}

/** Sets them on an answer Next is about to send. */
export function applySecurityHeaders(headers: Headers, pathname: string, customDomain: boolean, embedOrigins?: readonly string[]): void {
  for (const [name, value] of Object.entries(securityHeaders(pathname, customDomain, embedOrigins))) headers.set(name, value);
}
