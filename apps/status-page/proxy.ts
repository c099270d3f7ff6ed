import { type NextRequest, NextResponse } from "next/server";
import { pageByHost, pageBySlug } from "./lib/data";
import { getEnv } from "./lib/env";
import { PRIVATE_CACHE, PUBLIC_CACHE } from "./lib/page";
import { HOST_PAGE_HEADER } from "./lib/site";

/** Paths that belong to the site itself, never to a page on a custom domain. */
const SITE_PATHS = /^\/(_next|healthz|metrics|confirm|unsubscribe|favicon\.ico|robots\.txt)(\/|$)/;
/** The HTML views of a page (feeds, JSON and badges set their own headers). */
const PAGE_VIEW = /^\/([a-z0-9-]+)(?:\/history|\/reports\/\d+)?\/?$/i;

function isOwnHost(host: string): boolean {
  if (host === "" || host === "localhost" || /^[\d.]+$/.test(host) || host.startsWith("[")) return true;
  try {
    return new URL(getEnv().PUBLIC_URL).hostname === host;
  } catch {
    return true;
  }
}

/** Public pages may sit in a shared cache briefly; protected ones never. */
async function withCache(res: NextResponse, req: NextRequest, pathname: string) {
  const m = req.method === "GET" ? PAGE_VIEW.exec(pathname) : null;
  if (!m) return res;
  const page = await pageBySlug(m[1]!).catch(() => null);
  if (page) res.headers.set("cache-control", page.passwordHash || req.nextUrl.search ? PRIVATE_CACHE : PUBLIC_CACHE);
  return res;
}

/** A request on a page's custom domain is served by that page: `/` → `/{slug}`, `/history` → `/{slug}/history`. */
export async function proxy(req: NextRequest) {
  const headers = new Headers(req.headers);
  const claimed = headers.get(HOST_PAGE_HEADER);
  headers.delete(HOST_PAGE_HEADER);
  const host = (req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
  const { pathname } = req.nextUrl;
  if (isOwnHost(host) || SITE_PATHS.test(pathname)) return withCache(NextResponse.next({ request: { headers } }), req, pathname);
  const page = await pageByHost(host).catch(() => null);
  if (!page) return withCache(NextResponse.next({ request: { headers } }), req, pathname);
  headers.set(HOST_PAGE_HEADER, page.slug);
  // The proxy sees a rewritten request again: it is already on the page's path.
  if (claimed === page.slug && (pathname === `/${page.slug}` || pathname.startsWith(`/${page.slug}/`)))
    return withCache(NextResponse.next({ request: { headers } }), req, pathname);
  const url = req.nextUrl.clone();
  url.pathname = `/${page.slug}${pathname === "/" ? "" : pathname}`;
  return withCache(NextResponse.rewrite(url, { request: { headers } }), req, url.pathname);
}

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
