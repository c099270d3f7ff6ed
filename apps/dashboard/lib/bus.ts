import { defaultQueuePrefix } from "@vigil/core";
import { createRedis, ProbeBus } from "@vigil/queue";
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
    const redis = createRedis(env.REDIS_URL!, "producer");
    const sub = createRedis(env.REDIS_URL!, "subscriber");
    for (const r of [redis, sub]) r.on("error", (err) => log().warn({ err: err.message }, "redis"));
    const prefix = env.QUEUE_PREFIX ?? (await defaultQueuePrefix(getDb()));
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
