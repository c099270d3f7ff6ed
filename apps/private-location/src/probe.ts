import { randomFillSync } from "node:crypto";
import { join } from "node:path";
import type { CheckDefinition, IngestResult, ProbeMonitorList, ProbePool, RunRequest } from "@vigil/api-contract";
import { runCheck } from "@vigil/checks";
import { EgressPolicy } from "@vigil/egress";
import type { Logger } from "@vigil/service";
import type { Registry } from "prom-client";
import { ulid } from "ulid";
import { sleep } from "./backoff";
import { ServerClient } from "./client";
import type { ProbeEnv } from "./env";
import { HandledSlots } from "./handled";
import { LoadTracker } from "./load";
import { createProbeMetrics, type ProbeMetrics, RecentSamples } from "./metrics";
import { OtelExport } from "./otel";
import { Outbox } from "./outbox";
import { instanceId, PoolShare } from "./pool";
import { type Job, Scheduler } from "./scheduler";
import { Sender } from "./sender";
import { MonitorSync } from "./sync";

export type ProbeConfig = Omit<ProbeEnv, "PORT" | "HOST" | "LOG_LEVEL">;

// ulid's own source asks the OS for one random byte per character (16 calls an id, a few % of a core at
// 1,667 checks/s): the same crypto bytes, drawn from a pool refilled 4 KB at a time.
const randomPool = Buffer.alloc(4096);
let randomAt = randomPool.length;
const pooledRandom = () => {
  if (randomAt === randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  return randomPool[randomAt++]! / 256;
};
/** A result's id: a ULID (time, then 80 random bits). */
export const resultId = () => ulid(undefined, pooledRandom);

/** What GET /status answers. */
export interface ProbeStatus {
  location: ProbeMonitorList["location"] | null;
  monitors: number;
  running: number;
  queued: number;
  outbox: { depth: number; bytes: number };
  lastSyncAt: number | null;
  syncError: { reason: string; message: string; since: number } | null;
  lastSentAt: number | null;
  lagMs: { p50: number | null; p99: number | null; samples: number };
  otelExporters: number;
  /** This probe's instance, and the plans of its location's pool (null until the server names one). */
  pool: { instance: string; version: number | null; plans: ProbePool["plans"] | null };
}

/**
 * The probe: the scheduler runs checks, every result goes to the outbox (and to OTLP when the monitor
 * asks), the sender moves the outbox to the server, and the sync keeps the schedule in step with it.
 * `open` alone runs checks without a server (the benchmark does that); `connect` adds sync and sending.
 */
export class Probe {
  readonly metrics: ProbeMetrics;
  /** Lag of the last 65,536 checks (about 3 minutes at 10,000 monitors every 30 s) for /status. */
  private readonly lags = new RecentSamples(65_536);
  /** Checks not run in time because of the probe's own load: reported to the server, never posted as results. */
  private readonly load = new LoadTracker();
  private readonly scheduler: Scheduler;
  private readonly otel: OtelExport;
  private outbox!: Outbox;
  /** Which slots were handled, kept on disk for a restart. */
  private handled!: HandledSlots;
  /** Which slots are this probe's when several share the location's key. */
  private share!: PoolShare;
  private sync: MonitorSync | undefined;
  private sender: Sender | undefined;
  private client: ServerClient | undefined;
  private location: ProbeMonitorList["location"] | null = null;
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  private constructor(
    private readonly config: ProbeConfig,
    private readonly logger: Logger,
    registry: Registry,
    /** What checks and OTLP export may not reach: PROBE_DENY and PROBE_INSTANCE_URLS. */
    private readonly egress: EgressPolicy,
  ) {
    this.metrics = createProbeMetrics(registry, {
      running: () => this.scheduler.running,
      monitors: () => this.scheduler.size,
      outboxDepth: () => this.outbox.depth,
      outboxBytes: () => this.outbox.bytes,
    });
    this.otel = new OtelExport({ intervalMs: config.PROBE_OTEL_INTERVAL_MS, logger, egress });
    this.scheduler = new Scheduler({
      concurrency: config.PROBE_CONCURRENCY,
      run: (job) => this.runScheduled(job),
      owns: (monitorId, slot) => this.share.owns(monitorId, slot),
      onStart: (job) => {
        this.load.due();
        // A first check or a slot run after a restart starts late on purpose: not the probe falling behind.
        if (job.catchUp) return;
        this.metrics.lag.observe(job.lagMs / 1000);
        this.lags.add(job.lagMs);
      },
      onSkip: (m, slot, reason, count) => {
        this.metrics.skipped.inc({ reason }, count);
        if (reason === "late") this.load.skipped(count);
        this.logger.warn({ monitorId: m.id, region: this.region, slot, reason, count }, "slot skipped");
      },
      onError: (m, err) => this.logger.error({ monitorId: m.id, region: this.region, err }, "scheduled run failed"),
    });
  }

  static async open(config: ProbeConfig, logger: Logger, registry: Registry): Promise<Probe> {
    const egress = await EgressPolicy.create({ instance: config.PROBE_INSTANCE_URLS, deny: config.PROBE_DENY });
    const probe = new Probe(config, logger, registry, egress);
    probe.outbox = await Outbox.open({
      dir: join(config.PROBE_DATA_DIR, "outbox"),
      maxBytes: config.PROBE_OUTBOX_MAX_MB * 1024 * 1024,
      maxAgeMs: config.PROBE_OUTBOX_MAX_AGE_H * 3_600_000,
      commitMs: config.PROBE_COMMIT_MS,
      logger,
      onDrop: (count, reason) => probe.metrics.outboxDropped.inc({ reason }, count),
    });
    probe.share = new PoolShare(await instanceId(config.PROBE_DATA_DIR));
    probe.handled = new HandledSlots(join(config.PROBE_DATA_DIR, "slots.json"), logger);
    const handledBefore = await probe.handled.read();
    if (handledBefore !== undefined) probe.scheduler.resume(handledBefore);
    probe.handled.start(() => probe.scheduler.handledBefore());
    return probe;
  }

  /** HTTP checks say which location sent them, so a target can tell probes apart (a user's header wins). */
  private identify(check: CheckDefinition): CheckDefinition {
    if (check.kind !== "http" || !this.region) return check;
    const has = Object.keys(check.headers).some((k) => k.toLowerCase() === "x-vigil-region");
    return has ? check : { ...check, headers: { "x-vigil-region": this.region, ...check.headers } };
  }

  private get region(): string | undefined {
    return this.location?.region;
  }

  /**
   * Applies the monitor list kept on disk, then starts syncing monitors with the server and sending the outbox
   * to it. Resolves once the kept list is in force, so /status never answers an empty schedule after a restart.
   */
  async connect(): Promise<void> {
    const { config, logger, metrics } = this;
    this.client = new ServerClient(config.SERVICE_INGEST_URL, config.SERVICE_KEY, this.share.instance);
    this.sender = new Sender({
      outbox: this.outbox,
      client: this.client,
      logger,
      batchSize: config.PROBE_BATCH_SIZE,
      intervalMs: config.PROBE_SEND_INTERVAL_MS,
      maxBackoffMs: config.PROBE_MAX_BACKOFF_MS,
      onSent: (out) => {
        metrics.sent.inc({ outcome: "accepted" }, out.accepted);
        metrics.sent.inc({ outcome: "duplicate" }, out.duplicates);
        metrics.sent.inc({ outcome: "ignored" }, out.ignored);
        metrics.sent.inc({ outcome: "refused" }, out.refused);
      },
      onRejected: (count) => metrics.outboxDropped.inc({ reason: "rejected" }, count),
      onError: (reason) => metrics.sendErrors.inc({ reason }),
      onResent: (count) => metrics.resent.inc(count),
    });
    this.sync = new MonitorSync({
      client: this.client,
      logger,
      waitMs: config.PROBE_WAIT_MS,
      maxBackoffMs: config.PROBE_MAX_BACKOFF_MS,
      cacheFile: join(config.PROBE_DATA_DIR, "monitors.json"),
      onMonitors: (list, restored) => this.applyMonitors(list, restored),
      onSettled: () => {
        this.share.settle();
        this.scheduler.release();
      },
      onRun: (run) => this.track(this.answerRun(run)),
      pool: { version: () => this.share.current?.version, onPool: (pool) => this.share.set(pool) },
      load: () => this.load.take(),
      onError: (reason) => metrics.syncErrors.inc({ reason }),
    });
    await this.sync.restore();
    this.sender.start();
    this.sync.start();
  }

  /** Makes the schedule (and the OTLP exporters) match the server's list. */
  applyMonitors(list: ProbeMonitorList, restored = false): void {
    this.location = list.location;
    if (restored) this.share.restore(list.pool);
    else this.share.set(list.pool);
    this.otel.setRegion(list.location.region);
    void this.otel.sync(list.monitors);
    const diff = this.scheduler.sync(list.monitors);
    const pool = this.share.current && { instance: this.share.instance, poolVersion: this.share.current.version };
    this.logger.info(
      { ...diff, monitors: this.scheduler.size, region: this.region, location: list.location.name, ...pool },
      "monitors synced",
    );
  }

  status(): ProbeStatus {
    return {
      location: this.location,
      monitors: this.scheduler.size,
      running: this.scheduler.running,
      queued: this.scheduler.queued,
      outbox: { depth: this.outbox.depth, bytes: this.outbox.bytes },
      lastSyncAt: this.sync?.state.lastSyncAt ?? null,
      syncError: this.sync?.state.error ?? null,
      lastSentAt: this.sender?.lastSentAt ?? null,
      lagMs: { p50: this.lags.percentile(50), p99: this.lags.percentile(99), samples: this.lags.size },
      otelExporters: this.otel.exporters,
      pool: { instance: this.share.instance, version: this.share.current?.version ?? null, plans: this.share.current?.plans ?? null },
    };
  }

  /** Stops scheduling, lets running checks finish briefly, and leaves every result on disk. */
  async stop(): Promise<void> {
    this.stopping.abort();
    // Checks cut short by the stop are not handled: a restart runs their slots if their window is still open.
    const handledBefore = this.scheduler.handledBefore();
    this.handled.hold();
    await this.sync?.stop();
    await this.scheduler.stop(this.config.PROBE_SHUTDOWN_GRACE_MS);
    await Promise.allSettled([...this.runs]);
    await this.sender?.stop();
    await this.outbox.close();
    await this.handled.stop(handledBefore);
    // A collector that does not answer must not hold the shutdown up.
    await Promise.race([this.otel.shutdown(), sleep(2000)]);
    this.logger.info({ outboxDepth: this.outbox.depth }, "probe stopped; unsent results stay in the outbox");
  }

  private track(p: Promise<void>): void {
    this.runs.add(p);
    void p.finally(() => this.runs.delete(p));
  }

  private async runScheduled(job: Job): Promise<void> {
    const m = job.monitor;
    const result = await runCheck(this.identify(m.check), { signal: job.signal, deadline: job.deadline, egress: this.egress });
    // Aborted because the monitor was removed or the probe stops: that says nothing about the target.
    if (job.signal.aborted) return;
    // No attempt could start before the slot's deadline: the probe was late, the target is unknown. Not a
    // result (it would vote error and could alert on a healthy target), a skipped check the server is told of.
    if (result.attempts === 0) {
      this.metrics.skipped.inc({ reason: "deadline" });
      this.load.skipped(1, true);
      this.logger.warn(
        { monitorId: m.id, region: this.region, slot: job.slot, lagMs: job.lagMs },
        "check skipped: no time left before its deadline",
      );
      return;
    }
    const record: IngestResult = {
      ...result,
      id: resultId(),
      monitorId: m.id,
      cronTimestamp: job.slot,
      startedAt: Math.round(job.startedAt),
    };
    this.metrics.checks.inc({ kind: m.check.kind, status: result.status });
    if (result.status === "error") this.metrics.checkFailures.inc({ kind: m.check.kind });
    this.otel.record(m, result);
    this.logger.debug(
      {
        monitorId: m.id,
        region: this.region,
        cronTimestamp: job.slot,
        status: result.status,
        latencyMs: result.latencyMs,
        lagMs: job.lagMs,
      },
      "check done",
    );
    await this.outbox.append(record);
  }

  /** An on-demand run: one check, answered straight to the server, not through the outbox. */
  private async answerRun(run: RunRequest): Promise<void> {
    const fields = { runId: run.runId, monitorId: run.monitorId, region: this.region };
    const result = await runCheck(this.identify(run.check), { signal: this.stopping.signal, egress: this.egress });
    if (this.stopping.signal.aborted) return;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await this.client!.postRun(run.runId, result, this.stopping.signal);
        this.metrics.runs.inc({ outcome: "answered" });
        this.logger.info({ ...fields, status: result.status }, "on-demand run answered");
        return;
      } catch (err) {
        if (attempt === 3 || this.stopping.signal.aborted) {
          this.metrics.runs.inc({ outcome: "failed" });
          this.logger.warn({ ...fields, err: (err as Error).message }, "could not answer an on-demand run");
          return;
        }
        await sleep(500 * attempt, this.stopping.signal);
      }
    }
  }
}
