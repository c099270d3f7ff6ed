import { defaultQueuePrefix } from "@vigil/core";
import { type RateLimiter, rateLimiterFor } from "@vigil/rate-limit";
import { clientAddress } from "./client";
import { getDb } from "./data";
import { getEnv } from "./env";

let limiter: RateLimiter | undefined;

/** Rate limits on the server's Redis and queue prefix when REDIS_URL is set, in this process otherwise. */
export function getLimiter(): RateLimiter {
  const env = getEnv();
  limiter ??= rateLimiterFor(
    env.REDIS_URL,
    async () => env.QUEUE_PREFIX ?? (await defaultQueuePrefix(getDb())),
    // One line when Redis goes away and one when it is back (the status page has no other logger).
    {
      warn: (fields, message) => console.warn(`status-page: ${message}`, fields),
      info: (fields, message) => console.info(`status-page: ${message}`, fields),
    },
  );
  return limiter;
}

/** The client of a request: its socket address (stamped before Next), or behind TRUSTED_PROXIES the forwarded one. */
export const clientOf = (headers: Pick<Headers, "get">) => clientAddress(headers, getEnv().TRUSTED_PROXIES);
