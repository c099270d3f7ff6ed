// How often one key may do a thing (sign-in mail per address, subscribe per client, channel test per
// workspace), and who the client is. One sliding window: at most `limit` in any `windowMs`, counted in
// Redis when there is one (all processes share it), in this process otherwise (the lite deployment).
import { randomBytes } from "node:crypto";
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

export { clientAddress, clientKey, stampedClient } from "./client-address";
export { installClientStamp } from "./client-stamp";
export { PROXY_SECRET_ENV } from "./proxy-header";
