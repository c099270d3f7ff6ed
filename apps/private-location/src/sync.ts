import { readFile, rename, writeFile } from "node:fs/promises";
import { ProbeMonitorList, type ProbePool, type RunRequest } from "@vigil/api-contract";
import type { Logger } from "@vigil/service";
import { z } from "zod";
import { Backoff, sleep } from "./backoff";
import type { ProbeLoad } from "./client";
import { type ServerClient, ServerError, UnknownKeyError } from "./client";

export type SyncReason = "unknown-key" | "server" | "network";

export interface SyncOptions {
  client: ServerClient;
  logger: Logger;
  /** Long-poll timeout asked of the server (it caps it at its PROBE_WAIT_MS). */
  waitMs: number;
  maxBackoffMs: number;
  /** Where the last list is kept, so a probe restarted while the server is away still runs its monitors. */
  cacheFile?: string;
  /** `restored`: the list kept on disk, applied at start before the server answers. */
  onMonitors(list: ProbeMonitorList, restored: boolean): void;
  /**
   * Once after a start on the kept list: the server answered (its list and pool are applied), could not be
   * reached, or `settleMs` passed. Until then the kept pool may be stale.
   */
  onSettled?(): void;
  /** Default 5 s: bounds how long a slot due at a restart waits for the server's word. */
  settleMs?: number;
  onRun(run: RunRequest): void;
  /** The pool's plans as each poll answers them, and the version known, told at each poll. */
  pool?: { version(): number | undefined; onPool(pool: ProbePool): void };
  /** The probe's load, told to the server at each poll. */
  load?(): ProbeLoad;
  onError?(reason: SyncReason): void;
}

const Cached = z.object({ etag: z.string(), list: ProbeMonitorList });

export interface SyncState {
  location: ProbeMonitorList["location"] | null;
  /** Last time the server answered a sync request. */
  lastSyncAt: number | null;
  /** The last failure, cleared by the next success. */
  error: { reason: SyncReason; message: string; since: number } | null;
}

/**
 * Keeps the schedule in step with the server: fetches the monitor list (ETag / If-None-Match), then
 * long-polls /v1/probe/wait, which answers at once when the list changed or a run is waiting. On any
 * failure it backs off and starts over with a fresh fetch, so a change made while the server (or the
 * network) was away is picked up on the first success.
 */
export class MonitorSync {
  readonly state: SyncState = { location: null, lastSyncAt: null, error: null };
  private etag: string | null = null;
  /** The list kept on disk, with the pool as last heard. */
  private kept: ProbeMonitorList | null = null;
  private settleTimer: NodeJS.Timeout | undefined;
  private settled = false;
  private readonly controller = new AbortController();
  private readonly backoff: Backoff;
  private loop: Promise<void> | undefined;
  private restored: Promise<void> | undefined;

  constructor(private readonly opts: SyncOptions) {
    this.backoff = new Backoff(500, opts.maxBackoffMs);
  }

  /** Applies the list kept on disk, if any; `start` does it too. */
  restore(): Promise<void> {
    this.restored ??= this.loadCache();
    return this.restored;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    clearTimeout(this.settleTimer);
    await this.loop;
  }

  private settle(): void {
    clearTimeout(this.settleTimer);
    if (this.settled) return;
    this.settled = true;
    this.opts.onSettled?.();
  }

  private get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  private async run(): Promise<void> {
    const { client, logger } = this.opts;
    const signal = this.controller.signal;
    await this.restore();
    while (!this.stopped) {
      try {
        // The first fetch takes the whole list even when the kept one is current: its pool is the one in force.
        const got = await client.monitors(this.settled ? this.etag : null, signal);
        this.ok();
        if (!got.unchanged) {
          this.etag = got.etag;
          this.state.location = got.list.location;
          this.opts.onMonitors(got.list, false);
          await this.saveCache(got.etag, got.list);
        }
        this.settle();
        // Long-poll until the list changes; runs arrive on the way.
        for (;;) {
          const w = await client.wait(this.etag ?? "", this.opts.waitMs, signal, this.opts.load?.(), this.opts.pool?.version());
          this.ok();
          if (w.pool) {
            this.opts.pool?.onPool(w.pool);
            // A restart while the server is away starts from the latest plans, not those of the last list.
            if (this.etag && this.kept && this.kept.pool?.version !== w.pool.version) {
              await this.saveCache(this.etag, { ...this.kept, pool: w.pool });
            }
          }
          for (const run of w.runs) this.opts.onRun(run);
          if (w.changed) break;
        }
      } catch (err) {
        if (this.stopped) break;
        // The server cannot be reached: the kept plans are the best known, as they are for the other members.
        this.settle();
        const reason: SyncReason = err instanceof UnknownKeyError ? "unknown-key" : err instanceof ServerError ? "server" : "network";
        const pause = this.backoff.next();
        const message = err instanceof Error ? err.message : String(err);
        if (this.state.error?.reason !== reason || this.state.error.message !== message) {
          this.state.error = { reason, message, since: Date.now() };
        }
        this.opts.onError?.(reason);
        const fields = { reason, retryInMs: pause, attempt: this.backoff.attempts, region: this.state.location?.region };
        // An unknown key needs the operator; say so plainly on every try rather than once.
        if (reason === "unknown-key") logger.error(fields, message);
        else if (this.backoff.attempts === 1 || this.backoff.attempts % 10 === 0)
          logger.warn({ ...fields, err: message }, "sync with the server failed; retrying");
        await sleep(pause, signal);
      }
    }
  }

  private async loadCache(): Promise<void> {
    if (!this.opts.cacheFile) return;
    let cached: z.infer<typeof Cached>;
    try {
      cached = Cached.parse(JSON.parse(await readFile(this.opts.cacheFile, "utf8")));
    } catch {
      return; // first start, or a file from another version: the server's list comes next anyway
    }
    this.etag = cached.etag;
    this.kept = cached.list;
    this.state.location = cached.list.location;
    this.settleTimer = setTimeout(() => this.settle(), this.opts.settleMs ?? 5000).unref();
    this.opts.onMonitors(cached.list, true);
    this.opts.logger.info(
      { monitors: cached.list.monitors.length, region: cached.list.location.region },
      "running the monitors of the last sync until the server answers",
    );
  }

  private async saveCache(etag: string, fresh: ProbeMonitorList): Promise<void> {
    if (!this.opts.cacheFile) return;
    // A list without a pool (Redis away) keeps the plans known so far, on disk as in the probe.
    const list = fresh.pool || !this.kept?.pool ? fresh : { ...fresh, pool: this.kept.pool };
    const tmp = `${this.opts.cacheFile}.tmp`;
    try {
      // Check definitions may carry credentials (request headers): owner-only.
      await writeFile(tmp, JSON.stringify({ etag, list }), { mode: 0o600 });
      await rename(tmp, this.opts.cacheFile);
      this.kept = list;
    } catch (err) {
      this.opts.logger.warn({ err, file: this.opts.cacheFile }, "could not keep the monitor list on disk");
    }
  }

  private ok(): void {
    if (this.state.error) {
      this.opts.logger.info({ region: this.state.location?.region, downSince: this.state.error.since }, "sync with the server is back");
    }
    this.state.error = null;
    this.state.lastSyncAt = Date.now();
    this.backoff.reset();
  }
}
