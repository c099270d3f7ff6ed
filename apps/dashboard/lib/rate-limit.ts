import { defaultQueuePrefix, RATE_LIMITS } from "@vigil/core";
import { RateLimitedError, type RateLimiter, rateLimiterFor, stampedClient } from "@vigil/rate-limit";
import { getDb } from "./db";
import { getEnv } from "./env";
import { log } from "./log";

let limiter: RateLimiter | undefined;

/** Rate limits on the server's Redis and queue prefix when REDIS_URL is set, in this process otherwise (lite). */
export function getLimiter(): RateLimiter {
  const env = getEnv();
  limiter ??= rateLimiterFor(env.REDIS_URL, async () => env.QUEUE_PREFIX ?? (await defaultQueuePrefix(getDb())), log());
  return limiter;
}

/**
 * Counts one sign-in mail to `email` asked by the client of `headers`: a RateLimitedError when either
 * the address or the client has had its share (the client is counted only when known).
 */
export async function takeSignInMail(email: string, headers: Pick<Headers, "get">): Promise<void> {
  const client = clientOf(headers);
  if (client) await getLimiter().take(RATE_LIMITS.signInPerClient, client);
  await getLimiter().take(RATE_LIMITS.signInPerAddress, email);
}

/** The client of a request: its socket address (stamped at start, instrumentation.ts), or behind TRUSTED_PROXIES the forwarded one. */
export const clientOf = (headers: Pick<Headers, "get">) => stampedClient(headers, getEnv().TRUSTED_PROXIES);

const RULES = Object.values(RATE_LIMITS);

/** Where a refused request lands: the sign-in page names the rule and the wait, never free text. */
export const refusalPath = (err: RateLimitedError) => `/signin?error=RateLimited&rule=${err.rule.name}&wait=${err.retryAfterS}`;

/** The sentence for a `refusalPath` (its query), or null when it is not one. */
export function refusalText(query: URLSearchParams): string | null {
  const rule = RULES.find((r) => r.name === query.get("rule"));
  const wait = query.get("wait") ?? "";
  if (query.get("error") !== "RateLimited" || !rule || !/^\d{1,6}$/.test(wait)) return null;
  return new RateLimitedError(rule, Number(wait)).sentence;
}
