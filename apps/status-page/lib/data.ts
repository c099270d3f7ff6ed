import { type Analytics, analyticsFromEnv } from "@vigil/analytics";
import { findPublicPage, loadPublicPage, type PublicPage } from "@vigil/core";
import { createDb, type Db } from "@vigil/db-schema";
import { getEnv } from "./env";

let db: Db | undefined;
let analytics: Analytics | undefined;

/** One client per server process, created on first use so `next build` needs no database. */
export function getDb(): Db {
  db ??= createDb(getEnv().DATABASE_URL, getEnv().DATABASE_AUTH_TOKEN);
  return db;
}

export function getAnalytics(): Analytics {
  analytics ??= analyticsFromEnv(getDb(), getEnv());
  return analytics;
}

type FoundPage = NonNullable<Awaited<ReturnType<typeof findPublicPage>>>;

/**
 * A short in-process memo: a burst of visitors costs one database read per page every few seconds.
 * Kept well under the 30 s within which an update must show.
 */
const TTL_MS = 5_000;
const memo = new Map<string, { at: number; value: Promise<unknown> }>();
function remember<T>(key: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = memo.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value as Promise<T>;
  if (memo.size > 5_000) memo.clear();
  const value = load();
  memo.set(key, { at: now, value });
  // A failure is not remembered: the next visitor tries again.
  value.catch(() => memo.delete(key));
  return value;
}

export function pageBySlug(slug: string): Promise<FoundPage | null> {
  if (!/^[a-z0-9-]{1,64}$/i.test(slug)) return Promise.resolve(null);
  return remember(`slug:${slug.toLowerCase()}`, () => findPublicPage(getDb(), { slug }));
}

export function pageByHost(host: string): Promise<FoundPage | null> {
  return remember(`host:${host.toLowerCase()}`, () => findPublicPage(getDb(), { host }));
}

export function publicPage(page: FoundPage, days = 90): Promise<PublicPage> {
  return remember(`view:${page.id}:${days}`, () => loadPublicPage(getDb(), getAnalytics(), page, { days }));
}
