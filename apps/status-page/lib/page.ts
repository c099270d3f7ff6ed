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

/** For route handlers (feeds, JSON, badges): null when missing or locked, which they answer with 404. */
export async function openPage(slug: string): Promise<FoundPage | null> {
  const page = await pageBySlug(slug);
  if (!page || !(await hasAccess(page))) return null;
  return page;
}

/** Shared-cache policy of public responses: short, and stale copies refresh in the background. */
export const PUBLIC_CACHE = "public, max-age=0, s-maxage=15, stale-while-revalidate=15";
export const PRIVATE_CACHE = "private, no-store";
