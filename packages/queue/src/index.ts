import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import { type JobsOptions, Queue } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { z } from "zod";

export const QUEUES = { evaluate: "evaluate", notify: "notify", maintenance: "maintenance" } as const;
export const PREFIX = "vigil";

export const EvaluateItem = z.object({ monitorId: z.number().int(), cronTimestamp: z.number().int() });
export type EvaluateItem = z.infer<typeof EvaluateItem>;
/** One job per ingested batch: Redis work stays per batch, not per result. */
export const EvaluateJob = z.object({ items: z.array(EvaluateItem).min(1) });
export type EvaluateJob = z.infer<typeof EvaluateJob>;
export const NotifyJob = z.object({ eventId: z.number().int(), channelId: z.number().int() });
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
export const notifyJobId = (j: NotifyJob) => `notify-${j.eventId}-${j.channelId}`;

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

/**
 * Wakes long-polling probes and carries on-demand runs: requests wait in a per-location list,
 * results in a short-lived key; pub/sub only says "look now". One subscriber connection per process.
 */
export class ProbeBus {
  private readonly events = new EventEmitter();
  private readonly counts = new Map<string, number>();

  private readonly channelOf: { location: (id: number) => string; workspace: (id: number) => string; run: (runId: string) => string };
  private readonly runsKey: (locationId: number) => string;
  private readonly runResultKey: (runId: string) => string;
  private readonly runOwnerKey: (runId: string) => string;

  constructor(
    private readonly redis: Redis,
    private readonly sub: Redis,
    prefix = PREFIX,
  ) {
    this.channelOf = {
      location: (id: number) => `${prefix}:loc:${id}`,
      workspace: (id: number) => `${prefix}:ws:${id}:monitors`,
      run: (runId: string) => `${prefix}:run:${runId}`,
    };
    this.runsKey = (locationId: number) => `${prefix}:runs:${locationId}`;
    this.runResultKey = (runId: string) => `${prefix}:run-result:${runId}`;
    this.runOwnerKey = (runId: string) => `${prefix}:run-owner:${runId}`;
    this.events.setMaxListeners(0);
    sub.on("message", (channel: string, message: string) => this.events.emit(channel, message));
  }

  private async subscribe(channel: string, fn: (m: string) => void): Promise<() => void> {
    this.events.on(channel, fn);
    const n = (this.counts.get(channel) ?? 0) + 1;
    this.counts.set(channel, n);
    if (n === 1) await this.sub.subscribe(channel);
    return () => {
      this.events.off(channel, fn);
      const left = (this.counts.get(channel) ?? 1) - 1;
      if (left === 0) {
        this.counts.delete(channel);
        this.sub.unsubscribe(channel).catch(() => {});
      } else this.counts.set(channel, left);
    };
  }

  async monitorsChanged(workspaceId: number): Promise<void> {
    await this.redis.publish(this.channelOf.workspace(workspaceId), "changed");
  }

  /** Queues a run for one location; only that location may answer it (`publishRunResult`). */
  async requestRun(locationId: number, run: { runId: string; [field: string]: unknown }, ttlSeconds = 120): Promise<void> {
    await this.redis
      .multi()
      .set(this.runOwnerKey(run.runId), String(locationId), "EX", ttlSeconds)
      .rpush(this.runsKey(locationId), JSON.stringify(run))
      .expire(this.runsKey(locationId), ttlSeconds)
      .exec();
    await this.redis.publish(this.channelOf.location(locationId), "run");
  }

  /** Takes every pending run request of a location. */
  async takeRuns(locationId: number): Promise<unknown[]> {
    const res = await this.redis.multi().lrange(this.runsKey(locationId), 0, -1).del(this.runsKey(locationId)).exec();
    const items = (res?.[0]?.[1] as string[] | undefined) ?? [];
    return items.flatMap((s) => {
      try {
        return [JSON.parse(s)];
      } catch {
        return [];
      }
    });
  }

  /** Resolves on the first wake-up for the location or its workspace's monitors, or after `ms`. */
  async waitForWake(locationId: number, workspaceId: number, ms: number, signal?: AbortSignal): Promise<"wake" | "timeout"> {
    let done!: (v: "wake" | "timeout") => void;
    const result = new Promise<"wake" | "timeout">((r) => (done = r));
    const wake = () => done("wake");
    const offs = await Promise.all([
      this.subscribe(this.channelOf.location(locationId), wake),
      this.subscribe(this.channelOf.workspace(workspaceId), wake),
    ]);
    const timer = setTimeout(() => done("timeout"), ms);
    signal?.addEventListener("abort", () => done("timeout"), { once: true });
    try {
      return await result;
    } finally {
      clearTimeout(timer);
      for (const off of offs) off();
    }
  }

  /**
   * Stores a run's answer if `locationId` is the location the run was asked of (atomically, in
   * Redis): false for an unknown or expired run, or one of another location or workspace.
   */
  async publishRunResult(runId: string, locationId: number, result: unknown): Promise<boolean> {
    const stored = await this.redis.eval(
      `if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
       redis.call("SET", KEYS[2], ARGV[2], "EX", 120)
       redis.call("PUBLISH", KEYS[3], "done")
       return 1`,
      3,
      this.runOwnerKey(runId),
      this.runResultKey(runId),
      this.channelOf.run(runId),
      String(locationId),
      JSON.stringify(result),
    );
    return stored === 1;
  }

  /** Waits for a run's result; null when none arrives within `ms`. */
  async waitRunResult(runId: string, ms: number): Promise<unknown | null> {
    let done!: () => void;
    const signalled = new Promise<void>((r) => (done = r));
    const off = await this.subscribe(this.channelOf.run(runId), () => done());
    const timer = setTimeout(() => done(), ms);
    try {
      // Subscribed first, then read: a result stored in between is not missed.
      const first = await this.redis.get(this.runResultKey(runId));
      if (first !== null) return JSON.parse(first);
      await signalled;
      const raw = await this.redis.get(this.runResultKey(runId));
      return raw === null ? null : JSON.parse(raw);
    } finally {
      clearTimeout(timer);
      off();
    }
  }
}
