// What every status-page answer tells the browser: no type sniffing, no full URL in Referer to other sites,
// and no framing by other sites except the embed view, which exists to be framed.

/** The compact view made for iframes: `/<slug>/embed`, or `/embed` on a page's custom domain. */
const EMBED = /^\/[a-z0-9-]+\/embed\/?$/i;
const EMBED_ON_DOMAIN = /^\/embed\/?$/;

/**
 * Who may frame the embed view. No page setting names origins yet, so any site may (the widget's purpose);
 * the view shows nothing a visitor could be tricked into acting on, and links open in the top window.
 */
const EMBED_FRAME_ANCESTORS = "*";

/** The headers for an answer at `pathname`; `customDomain`: the request came on a page's own domain. */
export function securityHeaders(pathname: string, customDomain: boolean): Record<string, string> {
  const common = { "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" };
  if ((customDomain ? EMBED_ON_DOMAIN : EMBED).test(pathname))
    return { ...common, "content-security-policy": `frame-ancestors ${EMBED_FRAME_ANCESTORS}` };
  return { ...common, "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };
}

/** Sets them on an answer Next is about to send. */
export function applySecurityHeaders(headers: Headers, pathname: string, customDomain: boolean): void {
  for (const [name, value] of Object.entries(securityHeaders(pathname, customDomain))) headers.set(name, value);
}
