import { type NextRequest, NextResponse } from "next/server";
import { pageByHost, pageBySlug } from "./lib/data";
import { getEnv } from "./lib/env";
import { cacheKey, isPublicHost, requestHost } from "./lib/hosts";
import { PAGE_HEADERS, RENDER_HEADER, RENDER_TOKEN, type RenderedPage, renderedPage, selfOrigin } from "./lib/html-cache";
import { withoutRuntime } from "./lib/no-runtime";
import { PRIVATE_CACHE, PUBLIC_CACHE } from "./lib/page";
import { HOST_PAGE_HEADER } from "./lib/site";

/** Paths that belong to the site itself, never to a page on a custom domain. */
const SITE_PATHS = /^\/(_next|healthz|metrics|confirm|unsubscribe|favicon\.ico|robots\.txt)(\/|$)/;
/** The HTML views of a page (feeds, JSON and badges set their own headers). */
const PAGE_VIEW = /^\/([a-z0-9-]+)(?:\/history|\/reports\/\d+)?\/?$/i;

/**
 * Public pages may sit in a shared cache briefly; protected ones never. A public page without a query
 * is answered from this process's rendered copy (see lib/html-cache.ts); `hostSlug` is set on a custom domain.
 */
async function withCache(res: NextResponse, req: NextRequest, host: string, pathname: string, hostSlug?: string) {
  const m = req.method === "GET" ? PAGE_VIEW.exec(pathname) : null;
  if (!m) return res;
  const page = await pageBySlug(m[1]!).catch(() => null);
  if (!page) return res;
  const open = !page.passwordHash && !req.nextUrl.search;
  if (open && req.headers.get(RENDER_HEADER) !== RENDER_TOKEN && !req.headers.has("rsc")) {
    const path = pathname.replace(/\/$/, "");
    const headers: Record<string, string> = hostSlug ? { [HOST_PAGE_HEADER]: hostSlug } : {};
    const key = cacheKey(host, req.nextUrl.pathname);
    const got = await renderedPage(key, `${selfOrigin()}${path}`, headers, PUBLIC_CACHE).catch(() => null);
    if (got) return served(req, got.page, got.state);
  } else if (!open && req.headers.get(RENDER_HEADER) !== RENDER_TOKEN && !req.headers.has("rsc")) {
    const mine = await renderedFor(req, pathname, hostSlug).catch(() => null);
    if (mine) return mine;
  }
  res.headers.set("cache-control", open ? PUBLIC_CACHE : PRIVATE_CACHE);
  return res;
}

/** A protected page or one with a query is rendered for this visitor alone, never kept, and sent without runtime too. */
async function renderedFor(req: NextRequest, pathname: string, hostSlug?: string) {
  const headers: Record<string, string> = { [RENDER_HEADER]: RENDER_TOKEN, "accept-encoding": "identity" };
  if (hostSlug) headers[HOST_PAGE_HEADER] = hostSlug;
  const cookie = req.headers.get("cookie");
  if (cookie) headers.cookie = cookie;
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
  return new NextResponse(html, { status: res.status, headers: { "content-type": contentType, "cache-control": PRIVATE_CACHE } });
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

/** A request on a page's custom domain is served by that page: `/` → `/{slug}`, `/history` → `/{slug}/history`. */
export async function proxy(req: NextRequest) {
  const headers = new Headers(req.headers);
  const claimed = headers.get(HOST_PAGE_HEADER);
  // Our own render of a custom-domain page keeps the slug it was rendered for.
  if (req.headers.get(RENDER_HEADER) === RENDER_TOKEN) return NextResponse.next({ request: { headers } });
  headers.delete(HOST_PAGE_HEADER);
  const host = requestHost(req.headers.get("x-forwarded-host"), req.headers.get("host"));
  const { pathname } = req.nextUrl;
  if (SITE_PATHS.test(pathname)) return NextResponse.next({ request: { headers } });
  if (isPublicHost(host)) return withCache(NextResponse.next({ request: { headers } }), req, host, pathname);
  const page = await pageByHost(host).catch(() => null);
  if (!page) return unknownHost();
  headers.set(HOST_PAGE_HEADER, page.slug);
  // The proxy sees a rewritten request again: it is already on the page's path.
  if (claimed === page.slug && (pathname === `/${page.slug}` || pathname.startsWith(`/${page.slug}/`)))
    return withCache(NextResponse.next({ request: { headers } }), req, host, pathname, page.slug);
  const url = req.nextUrl.clone();
  url.pathname = `/${page.slug}${pathname === "/" ? "" : pathname}`;
  return withCache(NextResponse.rewrite(url, { request: { headers } }), req, host, url.pathname, page.slug);
}

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
