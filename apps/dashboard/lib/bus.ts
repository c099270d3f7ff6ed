import { defaultQueuePrefix } from "@vigil/core";
import { createRedis, logRedisOutages, optionalRedisRetry, ProbeBus, whenReady } from "@vigil/queue";
import { getDb } from "./db";
import { getEnv } from "./env";
import { log } from "./log";

let bus: Promise<ProbeBus> | undefined;

/**
 * The probe bus the server uses, on the server's Redis and queue prefix: "Test now" asks a probe
 * through it and saved changes wake probes at once. Null when REDIS_URL is unset (lite deployment).
 */
export function getBus(): Promise<ProbeBus> | null {
  const env = getEnv();
  if (!env.REDIS_URL) return null;
  bus ??= (async () => {
    // The dashboard works without Redis (only Test now and instant probe wake-ups need it): one warning
    // when it is away, and retries backing off to a minute.
    const options = { retryStrategy: optionalRedisRetry };
    const redis = createRedis(env.REDIS_URL!, "producer", options);
    const sub = createRedis(env.REDIS_URL!, "subscriber", options);
    for (const r of [redis, sub]) logRedisOutages(r, log());
    const prefix = env.QUEUE_PREFIX ?? (await defaultQueuePrefix(getDb()));
    // The first Check now after a start must not meet a connection still opening (it refuses commands until
    // then); a Redis that is away costs this wait once, later calls fail at once and the action says so.
    await whenReady(redis, 3000);
    return new ProbeBus(redis, sub, prefix);
  })();
  bus.catch(() => (bus = undefined));
  return bus;
}

/** Probes hear about a change at once; without Redis they see it on their next poll. */
export async function monitorsChanged(workspaceId: number): Promise<void> {
  await getBus()
    ?.then((b) => b.monitorsChanged(workspaceId))
    .catch(() => {});
}
