import { headers } from "next/headers";
import { getEnv } from "./env";

/** Set by proxy.ts when a request came in on a page's custom domain (its slug). */
export const HOST_PAGE_HEADER = "x-vigil-host-page";

/** Where this page's links start: "" on its custom domain, "/{slug}" on the shared site. */
export async function basePath(slug: string): Promise<string> {
  const h = await headers();
  return h.get(HOST_PAGE_HEADER) === slug ? "" : `/${slug}`;
}

/**
 * The absolute origin of a page's links in feeds and JSON: its custom domain when the request came in on it,
 * the configured PUBLIC_URL otherwise. Never a request header: a cached feed must not point elsewhere.
 */
export async function siteOrigin(page: { slug: string; customDomain: string | null }): Promise<string> {
  const publicUrl = new URL(getEnv().PUBLIC_URL);
  const h = await headers();
  if (page.customDomain && h.get(HOST_PAGE_HEADER) === page.slug) return `${publicUrl.protocol}//${page.customDomain}`;
  return getEnv().PUBLIC_URL;
}
