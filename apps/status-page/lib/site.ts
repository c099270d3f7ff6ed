import { headers } from "next/headers";

/** Set by proxy.ts when a request came in on a page's custom domain (its slug). */
export const HOST_PAGE_HEADER = "x-vigil-host-page";

/** Where this page's links start: "" on its custom domain, "/{slug}" on the shared site. */
export async function basePath(slug: string): Promise<string> {
  const h = await headers();
  return h.get(HOST_PAGE_HEADER) === slug ? "" : `/${slug}`;
}

/** The absolute URL of this request's site, for feeds and badges. */
export async function siteOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "127.0.0.1:3003";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
