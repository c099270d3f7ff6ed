// How often one key may do a thing (sign-in mail per address, subscribe per client, channel test per
// workspace), and who the client is. One sliding window: at most `limit` in any `windowMs`, counted in
// Redis when there is one (all processes share it), in this process otherwise (the lite deployment).
import { randomBytes } from "node:crypto";
import { type BlockList, isIP } from "node:net";
import { blockList } from "@vigil/egress";
import { createRedis, logRedisOutages, optionalRedisRetry } from "@vigil/queue";
import type { Redis } from "ioredis";

export interface RateRule {
  /** Part of the storage key: one counter per rule and key. */
  name: string;
  limit: number;
  windowMs: number;
  /** What is counted, as the refusal says it: "too many {what}; try again in N s". */
  what: string;
}

/** Refused by a rate rule; `retryAfterS` is when the oldest counted use leaves the window. */
export class RateLimitedError extends Error {
  readonly code = "rate_limited";
  constructor(
    readonly rule: RateRule,
    readonly retryAfterS: number,
  ) {
    super(`too many ${rule.what}; try again in ${retryAfterS} s`);
    this.name = "RateLimitedError";
  }
  /** As a form shows it: "Too many …; try again in N s." */
  get sentence(): string {
    return `T${this.message.slice(1)}.`;
  }
}

export interface RateLimiter {
  /** Counts one use of `key` under `rule`, or throws RateLimitedError (and counts nothing) when the window is full. */
  take(rule: RateRule, key: string, nowMs?: number): Promise<void>;
}

// Drops uses older than the window, then adds this one if there is room; else answers the ms until room.
const SLIDING_WINDOW = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1])`;

/** In-process windows: enough for one dashboard or status page process without Redis. */
function memoryWindows() {
  const uses = new Map<string, number[]>();
  return (key: string, rule: RateRule, now: number): number => {
    if (uses.size > 50_000) for (const [k, v] of uses) if (v.every((t) => t <= now - rule.windowMs)) uses.delete(k);
    const live = (uses.get(key) ?? []).filter((t) => t > now - rule.windowMs);
    if (live.length < rule.limit) {
      live.push(now);
      uses.set(key, live);
      return 0;
    }
    uses.set(key, live);
    return live[0]! + rule.windowMs - now;
  };
}

/**
 * A limiter on `redis` (shared by every process of the instance) or, with none, in this process. A Redis
 * that does not answer falls back to the process's own count: limits hold per process instead of not at all.
 */
export function createRateLimiter(redis: Redis | null | undefined, prefix = "vigil"): RateLimiter {
  const local = memoryWindows();
  return {
    async take(rule, key, nowMs = Date.now()) {
      const id = `${prefix}:rate:${rule.name}:${key}`;
      let waitMs: number;
      try {
        if (!redis) throw new Error("no redis");
        const member = `${nowMs}-${randomBytes(6).toString("hex")}`;
        waitMs = Number(await redis.eval(SLIDING_WINDOW, 1, id, nowMs, rule.windowMs, rule.limit, member));
      } catch {
        waitMs = local(id, rule, nowMs);
      }
      if (waitMs > 0) throw new RateLimitedError(rule, Math.max(1, Math.ceil(waitMs / 1000)));
    },
  };
}

/**
 * A limiter for an app that may run without Redis (dashboard, status page): on `redisUrl` under the
 * instance's queue prefix when set, so every process counts together; in the process otherwise.
 */
export function rateLimiterFor(
  redisUrl: string | undefined,
  prefix: () => Promise<string>,
  log: Parameters<typeof logRedisOutages>[1],
): RateLimiter {
  let ready: Promise<RateLimiter> | undefined;
  const get = () => {
    ready ??= (async () => {
      if (!redisUrl) return createRateLimiter(null);
      const redis = createRedis(redisUrl, "producer", { retryStrategy: optionalRedisRetry });
      logRedisOutages(redis, log);
      return createRateLimiter(redis, await prefix());
    })();
    ready.catch(() => (ready = undefined));
    return ready;
  };
  return { take: async (...args) => (await get()).take(...args) };
}

const bare = (a: string) => {
  const s = a.trim().replace(/^\[|\]$/g, "");
  return s.startsWith("::ffff:") && isIP(s.slice(7)) === 4 ? s.slice(7) : s;
};

// TRUSTED_PROXIES is parsed once per process: one list per configured array, not one per request.
const lists = new WeakMap<readonly string[], BlockList>();
const trustedList = (trusted: readonly string[]): BlockList => {
  const known = lists.get(trusted);
  if (known) return known;
  const list = blockList(trusted);
  lists.set(trusted, list);
  return list;
};

/**
 * The address of the client a request came from: the socket's peer, unless that peer is a proxy the
 * operator named (TRUSTED_PROXIES); then the nearest X-Forwarded-For hop that is not such a proxy.
 * A client-sent X-Forwarded-For is never believed on its own. `socketAddress` undefined means the
 * runtime hides the socket (Next): the peer is then taken to be a named proxy if any is named, and
 * with none named the answer is null (unknown), since Next passes a client-sent X-Forwarded-For through.
 */
export function clientAddress(
  headers: Pick<Headers, "get">,
  socketAddress: string | undefined,
  trustedProxies: readonly string[],
): string | null {
  const list = trustedList(trustedProxies);
  const trusted = (a: string) => isIP(a) !== 0 && list.check(a, isIP(a) === 6 ? "ipv6" : "ipv4");
  const peer = socketAddress ? bare(socketAddress) : undefined;
  if (peer !== undefined && !trusted(peer)) return peer;
  if (peer === undefined && trustedProxies.length === 0) return null;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(bare).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return null;
    if (!trusted(hop)) return hop;
  }
  return hops[0] ?? peer ?? null;
}
export { installClientStamp, stampedClient } from "./client-stamp";
