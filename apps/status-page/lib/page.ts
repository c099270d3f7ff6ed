import { notFound } from "next/navigation";
import { hasAccess } from "./access";
import { pageBySlug } from "./data";

export type FoundPage = NonNullable<Awaited<ReturnType<typeof pageBySlug>>>;

/** The page at `slug` for a page component: a real 404 when there is none. `locked` when a password is needed. */
export async function requirePage(slug: string): Promise<{ page: FoundPage; locked: boolean }> {
  const page = await pageBySlug(slug);
  if (!page) notFound();
  return { page, locked: !(await hasAccess(page)) };
}

/** Shared-cache policy of public responses: short, and stale copies refresh in the background. */
export const PUBLIC_CACHE = "public, max-age=0, s-maxage=15, stale-while-revalidate=15";
export const PRIVATE_CACHE = "private, no-store";

/**
 * For route handlers (feeds, JSON, badges): the page, or null when missing or locked (they answer 404),
 * and the cache headers of every answer about it. A protected page's answers depend on the visitor's
 * cookie: no shared cache may keep one, or an authorised copy would be served to everyone.
 */
export async function openPage(
  slug: string,
  publicCache = PUBLIC_CACHE,
): Promise<{ page: FoundPage | null; cache: Record<string, string> }> {
  const page = await pageBySlug(slug);
  const cache: Record<string, string> = page?.passwordHash
    ? { "cache-control": PRIVATE_CACHE, vary: "cookie" }
    : { "cache-control": publicCache };
  return { page: page && (await hasAccess(page)) ? page : null, cache };
}
