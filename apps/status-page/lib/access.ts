import { createHash } from "node:crypto";
import { verifyPageAccess } from "@vigil/core";
import { cookies } from "next/headers";
import { getEnv } from "./env";

export const ACCESS_TTL_MS = 7 * 86_400_000;
export const accessCookieName = (pageId: number) => `vigil_page_${pageId}`;

/** True when the page has no password or the visitor holds a valid signed cookie for it. */
export async function hasAccess(page: { id: number; passwordHash: string | null }): Promise<boolean> {
  if (!page.passwordHash) return true;
  const jar = await cookies();
  return verifyPageAccess(getEnv().AUTH_SECRET, page, jar.get(accessCookieName(page.id))?.value);
}

/**
 * Slows password guessing: 5 wrong passwords in 15 minutes from one client address lock that address
 * out of the page until its window has passed. Only that address: there is no page-wide ceiling, so
 * guesses from anywhere never keep the right password out for anyone else. A locked address's tries are
 * refused unchecked (checking them would let guessing go on). Counters live in Redis when REDIS_URL is
 * set, so every status page process sees the same ones, and in memory otherwise.
 */
const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 5;

interface Failures {
  count: number;
  /** Milliseconds until the window, and any lock, ends. */
  resetInMs: number;
}

const memory = new Map<string, { count: number; resetAt: number }>();
const inMemory = {
  async get(key: string, now = Date.now()): Promise<Failures> {
    const e = memory.get(key);
    if (!e || e.resetAt <= now) return { count: 0, resetInMs: 0 };
    return { count: e.count, resetInMs: e.resetAt - now };
  },
  async add(key: string, now = Date.now()): Promise<void> {
    if (memory.size > 50_000) for (const [k, e] of memory) if (e.resetAt <= now) memory.delete(k);
    const e = memory.get(key);
    if (e && e.resetAt > now) e.count++;
    else memory.set(key, { count: 1, resetAt: now + WINDOW_MS });
  },
};

type RedisClient = ReturnType<typeof import("@vigil/queue").createRedis>;
let redis: Promise<RedisClient> | undefined;
function redisClient(url: string): Promise<RedisClient> {
  // Loaded only when configured: a site without Redis does not carry its client.
  redis ??= import("@vigil/queue").then(({ createRedis }) =>
    createRedis(url, "producer", { enableOfflineQueue: true, commandTimeout: 1_000 }),
  );
  return redis;
}
const inRedis = (url: string) => ({
  async get(key: string): Promise<Failures> {
    const [[, count], [, ttl]] = (await (await redisClient(url)).multi().get(key).pttl(key).exec()) as [
      [null, string | null],
      [null, number],
    ];
    return { count: Number(count ?? 0), resetInMs: Math.max(0, ttl) };
  },
  async add(key: string): Promise<void> {
    const r = await redisClient(url);
    const [, [, ttl]] = (await r.multi().incr(key).pttl(key).exec()) as [unknown, [null, number]];
    // The first failure starts the window (and a key that lost its expiry gets one again).
    if (ttl < 0) await r.pexpire(key, WINDOW_MS);
  },
});

/** Redis when configured and answering; memory otherwise (an outage must not open or close every page). */
async function failures<T>(use: (store: typeof inMemory) => Promise<T>): Promise<T> {
  const url = getEnv().REDIS_URL;
  if (!url) return use(inMemory);
  try {
    return await use(inRedis(url) as typeof inMemory);
  } catch {
    return use(inMemory);
  }
}

type LockedPage = { id: number; passwordHash: string | null };
/** Per page and password (a new password starts afresh), per client. */
const failureKey = (page: LockedPage, client: string) =>
  `vigil:page-unlock:${page.id}:${createHash("sha256")
    .update(page.passwordHash ?? "")
    .digest("hex")
    .slice(0, 16)}:${client}`;

/** Milliseconds until this client may try again; 0 = may try now. */
export async function lockedFor(page: LockedPage, client: string): Promise<number> {
  const f = await failures((s) => s.get(failureKey(page, client)));
  return f.count >= MAX_FAILURES ? f.resetInMs || 1 : 0;
}

export function recordFailure(page: LockedPage, client: string): Promise<void> {
  return failures((s) => s.add(failureKey(page, client)));
}
