import { ErrorBody, type IngestOutput, type IngestResult } from "@vigil/api-contract";
import type { Logger } from "@vigil/service";
import { Backoff, sleep } from "./backoff";
import { type ServerClient, ServerError, UnknownKeyError } from "./client";
import type { Outbox } from "./outbox";

export type SendErrorReason = "unknown-key" | "server" | "network";

export interface SenderOptions {
  outbox: Outbox;
  client: ServerClient;
  logger: Logger;
  /** At most this many results per request (the server takes 1000). */
  batchSize: number;
  /** Results wait at most this long for a batch to fill. */
  intervalMs: number;
  maxBackoffMs: number;
  onSent?(out: IngestOutput): void;
  onRejected?(count: number): void;
  onError?(reason: SendErrorReason): void;
  /** Results of a batch sent again after its send failed: the server may have stored them (it drops doubles). */
  onResent?(count: number): void;
}

/** Indexes of the rows a 400 names (`results.<i>.<field>`), so only those are dropped. */
function rejectedRows(body: string, size: number): Map<number, string> {
  const rows = new Map<number, string>();
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(body));
    for (const issue of parsed.success ? (parsed.data.error.issues ?? []) : []) {
      const m = /^results\.(\d+)(?:\.|$)/.exec(issue.path);
      const i = m ? Number(m[1]) : -1;
      if (i >= 0 && i < size && !rows.has(i)) rows.set(i, `${issue.path}: ${issue.message}`);
    }
  } catch {}
  return rows;
}

/**
 * Moves results from the outbox to the server: a batch when `batchSize` are waiting or every
 * `intervalMs`, acknowledged in the outbox only after the server's 2xx. While the server is away it
 * retries the same batch with backoff; the outbox keeps everything meanwhile.
 */
export class Sender {
  lastSentAt: number | null = null;
  private readonly controller = new AbortController();
  private readonly backoff: Backoff;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private failing = false;

  constructor(private readonly opts: SenderOptions) {
    this.backoff = new Backoff(250, opts.maxBackoffMs);
  }

  start(): void {
    this.unsubscribe = this.opts.outbox.onCommit(() => {
      if (this.opts.outbox.depth >= this.opts.batchSize) this.wake?.();
    });
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.wake?.();
    this.unsubscribe?.();
    await this.loop;
  }

  private get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await this.waitForWork();
      if (this.stopped) break;
      try {
        await this.drain();
      } catch (err) {
        // A disk error reading the outbox: keep the loop alive and try again next round.
        this.opts.logger.error({ err }, "sender: could not read the outbox");
      }
    }
  }

  private waitForWork(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.opts.intervalMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** Sends everything durable, batch after batch; returns when the outbox is empty or the probe stops. */
  private async drain(): Promise<void> {
    const { outbox } = this.opts;
    // The size of the batch whose send failed: the outbox reads from the same first result again.
    let failed = 0;
    while (!this.stopped) {
      const batch = await outbox.read(this.opts.batchSize);
      if (!batch) return;
      if (failed > 0) this.opts.onResent?.(Math.min(failed, batch.records.length));
      if (!(await this.deliver(batch.records))) {
        failed = batch.records.length;
        await sleep(this.backoff.next(), this.controller.signal);
        continue;
      }
      failed = 0;
      this.backoff.reset();
      await outbox.ack(batch.end);
    }
  }

  /** True when the server took the batch (or rejected rows of it for good); false to retry later. */
  private async deliver(records: IngestResult[]): Promise<boolean> {
    const { client, logger } = this.opts;
    try {
      const out = await client.postResults(records, this.controller.signal);
      this.lastSentAt = Date.now();
      this.opts.onSent?.(out);
      if (this.failing) logger.info({ depth: this.opts.outbox.depth }, "the server takes results again; sending what the outbox kept");
      this.failing = false;
      return true;
    } catch (err) {
      if (err instanceof ServerError && err.status === 400) return this.rejected(records, err.body);
      if (this.stopped) return false;
      const reason: SendErrorReason = err instanceof UnknownKeyError ? "unknown-key" : err instanceof ServerError ? "server" : "network";
      this.opts.onError?.(reason);
      const message = err instanceof Error ? err.message : String(err);
      if (reason === "unknown-key") logger.error({ reason, depth: this.opts.outbox.depth }, message);
      else if (!this.failing || this.backoff.attempts % 10 === 0)
        logger.warn({ reason, err: message, depth: this.opts.outbox.depth }, "could not send results; keeping them in the outbox");
      this.failing = true;
      return false;
    }
  }

  /**
   * A 400 stored nothing and will never succeed as is. Drop the rows the server names and send the
   * rest; when it names none, halve the batch until the bad rows stand alone.
   */
  private async rejected(records: IngestResult[], body: string): Promise<boolean> {
    const named = rejectedRows(body, records.length);
    if (records.length === 1 || named.size > 0) {
      const bad = records.length === 1 ? new Map([[0, body.slice(0, 500)]]) : named;
      for (const [i, reason] of bad) {
        const r = records[i]!;
        this.opts.logger.error(
          { monitorId: r.monitorId, resultId: r.id, cronTimestamp: r.cronTimestamp, reason },
          "the server rejected a result; dropped",
        );
      }
      this.opts.onRejected?.(bad.size);
      const rest = records.filter((_, i) => !bad.has(i));
      return rest.length === 0 || this.deliver(rest);
    }
    const mid = records.length >> 1;
    return (await this.deliver(records.slice(0, mid))) && (await this.deliver(records.slice(mid)));
  }
}
