import { createHash } from "node:crypto";
import { type JobsOptions, Queue } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { z } from "zod";
import { PREFIX } from "./prefix";

export { PREFIX };

export const QUEUES = { evaluate: "evaluate", notify: "notify", maintenance: "maintenance" } as const;

export const EvaluateItem = z.object({ monitorId: z.number().int(), cronTimestamp: z.number().int() });
export type EvaluateItem = z.infer<typeof EvaluateItem>;
/** One job per ingested batch: Redis work stays per batch, not per result. */
export const EvaluateJob = z.object({ items: z.array(EvaluateItem).min(1) });
export type EvaluateJob = z.infer<typeof EvaluateJob>;
/** `round`: 0 for the event itself; a reminder or escalation step's timer id when it sends the event again. */
export const NotifyJob = z.object({
  eventId: z.number().int(),
  channelId: z.number().int(),
  round: z.number().int().nonnegative().optional(),
});
export type NotifyJob = z.infer<typeof NotifyJob>;

/** Job ids make a job unique: a replayed add of the same id is a no-op in BullMQ. */
/** The same set of (monitor, slot) gives the same id, so a sweep re-adding pending work adds nothing. */
export const evaluateJobId = (items: EvaluateItem[]) =>
  `eval-${createHash("sha1")
    .update(
      items
        .map((i) => `${i.monitorId}:${i.cronTimestamp}`)
        .sort()
        .join(","),
    )
    .digest("hex")}`;

export const EVALUATE_CHUNK = 500;
/** Splits evaluation work into jobs (bulk entries) of at most EVALUATE_CHUNK monitors. */
export function evaluateJobs(items: EvaluateItem[], opts: JobsOptions = {}) {
  const jobs = [];
  for (let i = 0; i < items.length; i += EVALUATE_CHUNK) {
    const chunk = items.slice(i, i + EVALUATE_CHUNK);
    jobs.push({
      name: "evaluate",
      data: { items: chunk } satisfies EvaluateJob,
      opts: {
        jobId: evaluateJobId(chunk),
        removeOnComplete: 1000,
        removeOnFail: 5000,
        attempts: 5,
        backoff: { type: "exponential" as const, delay: 500 },
        ...opts,
      },
    });
  }
  return jobs;
}
export const notifyJobId = (j: NotifyJob) => `notify-${j.eventId}-${j.channelId}${j.round ? `-t${j.round}` : ""}`;

/** Workers block on Redis and must wait through outages; producers must fail fast instead. */
export function createRedis(url: string, role: "worker" | "producer" | "subscriber", extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === "worker" ? null : 1,
    enableOfflineQueue: role !== "producer",
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
    ...extra,
  });
}

/**
 * Resolves once `redis` is connected, or after `ms` (false). A producer connection refuses commands until it
 * is (no offline queue), so a first use right after creating one waits here instead of failing.
 */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off("ready", onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.on("ready", onReady);
  });
}

/** Retries for a Redis a service can run without: 1 s, doubling up to a minute, so an absent one costs nothing. */
export const optionalRedisRetry = (times: number) => Math.min(1000 * 2 ** Math.min(times - 1, 6), 60_000);

/**
 * Logs a connection's outage once (its first error), and its return, instead of one line per retry:
 * a Redis that stays away must not fill the log.
 */
export function logRedisOutages(
  redis: Redis,
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void },
): void {
  let down = false;
  redis.on("error", (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: err.message }, "redis unreachable; retrying with backoff");
  });
  redis.on("ready", () => {
    if (down) log.info({}, "redis reachable again");
    down = false;
  });
}

export class QueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`queue unavailable: ${(cause as Error)?.message ?? cause}`);
    this.name = "QueueUnavailableError";
  }
}

/** Producer side of the evaluate queue: rejects within `timeoutMs` when Redis is away. */
export class EvaluateProducer {
  readonly queue: Queue;
  constructor(
    readonly connection: Redis,
    prefix = PREFIX,
    private readonly timeoutMs = 2000,
  ) {
    this.queue = new Queue(QUEUES.evaluate, { connection, prefix });
    // Errors surface through add(); the queue's own error events would otherwise be unhandled.
    this.queue.on("error", () => {});
  }

  async add(items: EvaluateItem[], opts: JobsOptions = {}): Promise<void> {
    if (items.length === 0) return;
    if (this.connection.status !== "ready") throw new QueueUnavailableError(`redis is ${this.connection.status}`);
    const work = this.queue.addBulk(evaluateJobs(items, opts));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new QueueUnavailableError("timed out")), this.timeoutMs);
    });
    try {
      await Promise.race([work, timeout]);
    } catch (err) {
      throw err instanceof QueueUnavailableError ? err : new QueueUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
  }
}

export const HEARTBEAT_QUEUE = "heartbeats";

/** Passes run on whole seconds: asks for the same second, from pings or deadlines, share one pass. */
const passSecond = (atMs: number) => (Math.floor(atMs / 1000) + 1) * 1000;

/**
 * Asks for a heartbeat pass at the first whole second after `atMs`: the server when it stored pings,
 * workflows at the next deadline. The job id is that second, so asks from any number of servers and
 * workflows make one job, and passes never run more often than once a second. Best effort: a lost ask is
 * found by the slow safety tick.
 */
export async function askHeartbeatPass(queue: Queue, atMs = Date.now()): Promise<void> {
  const at = passSecond(atMs);
  await queue
    .add("heartbeats", {}, { jobId: `at-${at}`, delay: Math.max(0, at - Date.now()), removeOnComplete: 100, removeOnFail: 100 })
    .catch(() => {});
}

/** The server's side: pings stored within one second ask once for the pass that follows it. */
export class HeartbeatPasses {
  readonly queue: Queue;
  private asked = 0;
  constructor(connection: Redis, prefix = PREFIX) {
    this.queue = new Queue(HEARTBEAT_QUEUE, { connection, prefix });
    this.queue.on("error", () => {});
  }

  ask(): void {
    const now = Date.now();
    const second = passSecond(now);
    if (second === this.asked) return;
    this.asked = second;
    void askHeartbeatPass(this.queue, now);
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
  }
}

export { ProbeBus } from "./probe-bus";
export { POOL_LEAD_MS, ProbePool } from "./probe-pool";
