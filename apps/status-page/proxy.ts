import { type NextRequest, NextResponse } from "next/server";
import { pageByHost, pageBySlug } from "./lib/data";
import { getEnv } from "./lib/env";
import { isPublicHost, requestHost, sharedCopy } from "./lib/hosts";
import { PAGE_HEADERS, RENDER_HEADER, RENDER_TOKEN, type RenderedPage, renderedPage, selfOrigin } from "./lib/html-cache";
import { LOCALE_HEADER, localeOf } from "./lib/i18n";
import { withoutRuntime } from "./lib/no-runtime";
import { PRIVATE_CACHE, PUBLIC_CACHE } from "./lib/page";
import { applySecurityHeaders, embedSlug, isEmbed } from "./lib/security-headers";
import { HOST_PAGE_HEADER } from "./lib/site";

/** Paths that belong to the site itself, never to a page on a custom domain. */
const SITE_PATHS = /^\/(_next|healthz|metrics|confirm|unsubscribe|favicon\.ico|robots\.txt)(\/|$)/;
/** The HTML views of a page (feeds, JSON and badges set their own headers). */
const PAGE_VIEW = /^\/([a-z0-9-]+)(?:\/history|\/reports\/\d+|\/embed)?\/?$/i;

/**
 * Public pages may sit in a shared cache briefly; protected ones never. A public page without a query, or
 * with only `?lang=`, is answered from this process's rendered copy (see lib/html-cache.ts); `hostSlug` is
 * set on a custom domain.
 */
async function withCache(res: NextResponse, req: NextRequest, host: string, pathname: string, hostSlug?: string) {
  const m = req.method === "GET" ? PAGE_VIEW.exec(pathname) : null;
  if (!m) return res;
  const page = await pageBySlug(m[1]!).catch(() => null);
  if (!page) return res;
  const copy = page.passwordHash
    ? undefined
    : sharedCopy(host, req.nextUrl.pathname, req.nextUrl.search, req.headers.get("accept-language"));
  const open = copy !== undefined;
  if (copy && req.headers.get(RENDER_HEADER) !== RENDER_TOKEN && !req.headers.has("rsc")) {
    const path = pathname.replace(/\/$/, "");
    const headers: Record<string, string> = hostSlug ? { [HOST_PAGE_HEADER]: hostSlug } : {};
    // One copy per language (`?lang=` or the browser's); those asking for none of ours share the page's own.
    if (copy.language) headers["accept-language"] = copy.language;
    const got = await renderedPage(copy.key, `${selfOrigin()}${path}`, headers, PUBLIC_CACHE).catch(() => null);
    if (got) return served(req, got.page, got.state);
  } else if (!open && req.headers.get(RENDER_HEADER) !== RENDER_TOKEN && !req.headers.has("rsc")) {
    const mine = await renderedFor(req, pathname, hostSlug).catch(() => null);
    if (mine) return mine;
  }
  res.headers.set("cache-control", open ? PUBLIC_CACHE : PRIVATE_CACHE);
  res.headers.set("vary", "accept-encoding, accept-language");
  return res;
}

/** Chooses the language of a page view (the page's own when the visitor asks for none of ours) or of a site page. */
async function setLocale(headers: Headers, req: NextRequest, pathname: string) {
  const m = PAGE_VIEW.exec(pathname);
  const page = m ? await pageBySlug(m[1]!).catch(() => null) : null;
  headers.set(LOCALE_HEADER, localeOf(req.nextUrl, req.headers.get("accept-language"), page?.language));
}

/** Passes the request on, saying which language the answer is in. */
function next(headers: Headers) {
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-language", headers.get(LOCALE_HEADER) ?? "en");
  return res;
}

/** A protected page or one with a query is rendered for this visitor alone, never kept, and sent without runtime too. */
async function renderedFor(req: NextRequest, pathname: string, hostSlug?: string) {
  const headers: Record<string, string> = { [RENDER_HEADER]: RENDER_TOKEN, "accept-encoding": "identity" };
  if (hostSlug) headers[HOST_PAGE_HEADER] = hostSlug;
  const cookie = req.headers.get("cookie");
  if (cookie) headers.cookie = cookie;
  const language = req.headers.get("accept-language");
  if (language) headers["accept-language"] = language;
  const res = await fetch(`${selfOrigin()}${pathname}${req.nextUrl.search}`, {
    headers,
    redirect: "manual",
    cache: "no-store",
    signal: AbortSignal.timeout(15_000),
  });
  const contentType = res.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/html")) {
    await res.body?.cancel();
    return null;
  }
  const html = withoutRuntime(await res.text());
  return new NextResponse(html, {
    status: res.status,
    headers: { "content-type": contentType, "cache-control": PRIVATE_CACHE, "content-language": res.headers.get("content-language") ?? "" },
  });
}

function served(req: NextRequest, page: RenderedPage, state: string) {
  const headers = new Headers({ ...PAGE_HEADERS(page), "x-vigil-cache": state });
  if (req.headers.get("if-none-match") === page.etag) return new NextResponse(null, { status: 304, headers });
  // Next compresses the response as for any page (it drops a content-encoding set here).
  return new NextResponse(page.html, { status: 200, headers });
}

/** No page lives at a host that is neither ours nor a page's custom domain; nothing is rendered or kept for it. */
const unknownHost = () =>
  new NextResponse(`No status page at this address. Pages are served at ${getEnv().PUBLIC_URL} and on their custom domains.\n`, {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });

/** Every answer, whichever way it is made, carries the site's security headers (lib/security-headers.ts). */
export async function proxy(req: NextRequest) {
  const res = await route(req);
  const host = requestHost(req.headers.get("x-forwarded-host"), req.headers.get("host"));
  const onDomain = !isPublicHost(host);
  const { pathname } = req.nextUrl;
  // The embed view may be framed only by the sites its page's admin listed (none listed: any site).
  const embedder = isEmbed(pathname, onDomain)
    ? await (onDomain ? pageByHost(host) : pageBySlug(embedSlug(pathname))).catch(() => null)
    : null;
  applySecurityHeaders(res.headers, pathname, onDomain, embedder?.embedOrigins);
  return res;
}

/** A request on a page's custom domain is served by that page: `/` → `/{slug}`, `/history` → `/{slug}/history`. */
async function route(req: NextRequest) {
  const headers = new Headers(req.headers);
  const claimed = headers.get(HOST_PAGE_HEADER);
  const { pathname } = req.nextUrl;
  // Our own render of a custom-domain page keeps the slug it was rendered for.
  if (req.headers.get(RENDER_HEADER) === RENDER_TOKEN) {
    await setLocale(headers, req, pathname);
    return next(headers);
  }
  headers.delete(HOST_PAGE_HEADER);
  const host = requestHost(req.headers.get("x-forwarded-host"), req.headers.get("host"));
  if (SITE_PATHS.test(pathname)) {
    await setLocale(headers, req, "");
    return next(headers);
  }
  if (isPublicHost(host)) {
    await setLocale(headers, req, pathname);
    return withCache(next(headers), req, host, pathname);
  }
  const page = await pageByHost(host).catch(() => null);
  if (!page) return unknownHost();
  headers.set(HOST_PAGE_HEADER, page.slug);
  headers.set(LOCALE_HEADER, localeOf(req.nextUrl, req.headers.get("accept-language"), page.language));
  // The proxy sees a rewritten request again: it is already on the page's path.
  if (claimed === page.slug && (pathname === `/${page.slug}` || pathname.startsWith(`/${page.slug}/`)))
    return withCache(next(headers), req, host, pathname, page.slug);
  const url = req.nextUrl.clone();
  url.pathname = `/${page.slug}${pathname === "/" ? "" : pathname}`;
  const rewritten = NextResponse.rewrite(url, { request: { headers } });
  rewritten.headers.set("content-language", headers.get(LOCALE_HEADER) ?? "en");
  return withCache(rewritten, req, host, url.pathname, page.slug);
}

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
