import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";
import { PREFIX } from "./prefix";
import { ProbePool } from "./probe-pool";

/**
 * Wakes long-polling probes and carries on-demand runs: requests wait in a per-location list,
 * results in a short-lived key; pub/sub only says "look now". One subscriber connection per process.
 */
export class ProbeBus {
  private readonly events = new EventEmitter();
  private readonly counts = new Map<string, number>();
  /** Each channel's SUBSCRIBE in flight or done: every listener waits for it, not just the first. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  private readonly channelOf: { location: (id: number) => string; workspace: (id: number) => string; run: (runId: string) => string };
  private readonly runsKey: (locationId: number) => string;
  private readonly runResultKey: (runId: string) => string;
  private readonly runOwnerKey: (runId: string) => string;
  /** The probes sharing each location's key. */
  readonly pool: ProbePool;

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
    this.pool = new ProbePool(redis, prefix, (id) => redis.publish(this.channelOf.location(id), "pool"));
    this.events.setMaxListeners(0);
    sub.on("message", (channel: string, message: string) => this.events.emit(channel, message));
  }

  private async subscribe(channel: string, fn: (m: string) => void): Promise<() => void> {
    this.events.on(channel, fn);
    const n = (this.counts.get(channel) ?? 0) + 1;
    this.counts.set(channel, n);
    if (n === 1) this.subscribed.set(channel, this.sub.subscribe(channel));
    await this.subscribed.get(channel);
    return () => {
      this.events.off(channel, fn);
      const left = (this.counts.get(channel) ?? 1) - 1;
      if (left === 0) {
        this.counts.delete(channel);
        this.subscribed.delete(channel);
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

  /**
   * Resolves on the first wake-up for the location or its workspace's monitors, or after `ms`. `ready` runs once
   * the subscriptions are live: a run requested after the caller last looked is seen there or wakes the wait,
   * never lost between the two (true from `ready` returns at once).
   */
  async waitForWake(
    locationId: number,
    workspaceId: number,
    ms: number,
    signal?: AbortSignal,
    ready?: () => Promise<boolean>,
  ): Promise<"wake" | "timeout"> {
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
      if (ready && (await ready())) return "wake";
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
