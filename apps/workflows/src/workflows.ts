import { AnalyticsUnavailableError, analyticsFromEnv, exportResults, isClickHouse } from "@vigil/analytics";
import { pingEndpoint } from "@vigil/api-contract";
import { metricsRefusal } from "@vigil/config";
import { type AskCheck, resolveQueuePrefix } from "@vigil/core";
import { createDb, openSecrets } from "@vigil/db-schema";
import { EgressPolicy } from "@vigil/egress";
import { NotifierEnv } from "@vigil/notifier";
import {
  askHeartbeatPass,
  createRedis,
  type EvaluateItem,
  evaluateJobs,
  HEARTBEAT_QUEUE,
  type NotifyJob,
  notifyJobId,
  ProbeBus,
  QUEUES,
} from "@vigil/queue";
import { createLogger, createServiceApp, listenOnEnv } from "@vigil/service";
import { Queue, Worker } from "bullmq";
import { Counter, Gauge, Histogram } from "prom-client";
import type { WorkflowContext } from "./context";
import type { WorkflowsEnv } from "./env";
import { runFreshCheck } from "./escalate/fresh-check";
import { ALERT_TIMERS_QUEUE, alertTimersProcessor } from "./escalate/processor";
import { evaluateProcessor } from "./evaluate/processor";
import { heartbeatProcessor } from "./heartbeats/processor";
import { housekeepingProcessor } from "./housekeeping";
import { retryDelay } from "./notify/backoff";
import { notifyProcessor } from "./notify/processor";
import { slots } from "./notify/slots";
import { subscriberEgress } from "./subscriber-mail";

/** libSQL's hourly rollup: a run with nothing to sum costs one index seek per monitor. */
const ROLLUP_EVERY_MS = 60_000;

export async function startWorkflows(env: WorkflowsEnv, opts: { handleSignals?: boolean } = {}) {
  const logger = createLogger("workflows", env.LOG_LEVEL);
  const db = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN, { uncompressed: true });
  const prefix = await resolveQueuePrefix(db, env.QUEUE_PREFIX, (err) =>
    logger.warn({ err: err.message }, "waiting for the database to name the queues"),
  );
  // Alerts read channel secrets: a key that cannot read them all stops the start, before any job runs.
  await openSecrets(db, env.VIGIL_SECRET_KEY);
  const connection = createRedis(env.REDIS_URL, "worker");
  connection.on("error", (err) => logger.warn({ err: err.message }, "redis"));
  // A held child's alert asks a probe for a fresh check of its parent (or of itself once the parent is back).
  const subscriber = createRedis(env.REDIS_URL, "subscriber");
  subscriber.on("error", (err) => logger.warn({ err: err.message }, "redis"));
  const bus = new ProbeBus(connection, subscriber, prefix);
  const askCheck: AskCheck = (monitorId, askedAt) => {
    runFreshCheck(db, bus, monitorId, askedAt).catch((err) =>
      logger.warn({ err: (err as Error).message, monitorId }, "a fresh check for a held alert could not be asked"),
    );
  };

  const queues = {
    evaluate: new Queue(QUEUES.evaluate, { connection, prefix }),
    notify: new Queue(QUEUES.notify, { connection, prefix }),
    maintenance: new Queue(QUEUES.maintenance, { connection, prefix }),
    // Its own queue, so an export (ClickHouse) or rollup (libSQL) backlog never delays the sweeps.
    analyticsExport: new Queue("analytics-export", { connection, prefix }),
    // Heartbeat deadlines: alone on their queue, so an alert is never behind a sweep or an export.
    heartbeats: new Queue(HEARTBEAT_QUEUE, { connection, prefix }),
    // Its own queue: reminders and escalation steps keep their minute even while housekeeping is busy.
    alertTimers: new Queue(ALERT_TIMERS_QUEUE, { connection, prefix }),
  };
  // Alerts name a heartbeat's ping URL (without its token).
  pingEndpoint.base = env.PING_BASE_URL;
  const analytics = analyticsFromEnv(db, env);
  for (const q of Object.values(queues)) q.on("error", (err) => logger.warn({ err: err.message, queue: q.name }, "queue"));

  const { app, registry } = createServiceApp("workflows", logger, (auth) => metricsRefusal(auth, env.VIGIL_METRICS_TOKEN));
  const metrics = {
    deliveries: new Counter({
      name: "vigil_deliveries_total",
      help: "Notification attempts by outcome",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    evaluationLag: new Histogram({
      name: "vigil_evaluation_lag_seconds",
      help: "From a result's slot to its evaluation",
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
  };
  new Gauge({
    name: "vigil_queue_jobs",
    help: "Jobs per queue and state",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      for (const q of Object.values(queues)) {
        const counts = await q.getJobCounts("waiting", "active", "delayed", "failed").catch(() => null);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ queue: q.name, state }, n);
      }
    },
  });

  const ctx: WorkflowContext = {
    db,
    logger,
    notifierEnv: NotifierEnv.parse(env),
    egress: await EgressPolicy.forInstance(env),
    subscriberEgress: await subscriberEgress(env),
    metrics,
    sending: slots(env.NOTIFY_CONCURRENCY),
    retryDelay: (jobId, attemptsMade) => retryDelay(jobId, attemptsMade, env.NOTIFY_BACKOFF_MS, env.NOTIFY_BACKOFF_MAX_MS),
    async notifyQueue(jobs: NotifyJob[]) {
      if (jobs.length === 0) return;
      await queues.notify.addBulk(
        jobs.map((data) => ({
          name: "notify",
          data,
          opts: {
            jobId: notifyJobId(data),
            attempts: env.NOTIFY_ATTEMPTS,
            backoff: { type: "jittered" },
            removeOnComplete: { age: 7 * 86_400 },
            removeOnFail: { age: 30 * 86_400 },
          },
        })),
      );
    },
  };
  const enqueueEvaluate = async (items: EvaluateItem[], jobIdSuffix?: string) => {
    if (items.length === 0) return;
    const jobs = evaluateJobs(items);
    if (jobIdSuffix) for (const j of jobs) j.opts.jobId = `${j.opts.jobId}-${jobIdSuffix}`;
    await queues.evaluate.addBulk(jobs);
  };

  const workerOpts = { connection, prefix, lockDuration: env.JOB_LOCK_MS, stalledInterval: env.JOB_LOCK_MS, maxStalledCount: 100 };
  const workers: Worker[] = [
    new Worker(QUEUES.evaluate, evaluateProcessor(ctx), { ...workerOpts, concurrency: env.EVALUATE_CONCURRENCY }),
    new Worker(QUEUES.notify, notifyProcessor(ctx), {
      ...workerOpts,
      // A short lock, checked every second: a delivery left by a killed worker is taken up within seconds.
      lockDuration: env.NOTIFY_LOCK_MS,
      stalledInterval: 1000,
      // Twice the requests in flight: a delivery's database round trips (before and after its request) do not hold a request's place.
      concurrency: 2 * env.NOTIFY_CONCURRENCY,
      settings: { backoffStrategy: (attemptsMade, _type, _err, job) => ctx.retryDelay(String(job?.id), attemptsMade) },
    }),
    new Worker(
      HEARTBEAT_QUEUE,
      heartbeatProcessor(ctx, { ask: (at) => askHeartbeatPass(queues.heartbeats, at), retryMs: env.HEARTBEAT_TICK_MS }),
      { ...workerOpts, concurrency: 1 },
    ),
    new Worker(ALERT_TIMERS_QUEUE, alertTimersProcessor(ctx, env.ALERT_TICK_MS, askCheck), { ...workerOpts, concurrency: 1 }),
    new Worker(QUEUES.maintenance, housekeepingProcessor(ctx, analytics, enqueueEvaluate, env.STATUS_PAGE_URL), {
      ...workerOpts,
      concurrency: 1,
    }),
  ];
  if (isClickHouse(analytics)) {
    // Results are copied from libSQL past a durable watermark: a ClickHouse outage delays them, never loses them.
    const exporter = async () => {
      try {
        const out = await exportResults(db, analytics, { batch: 5_000, maxBatches: 20 });
        if (out.exported > 0) logger.info(out, "results exported to analytics");
        return out;
      } catch (err) {
        if (!(err instanceof AnalyticsUnavailableError)) throw err;
        logger.warn({ err: err.message }, "analytics export waits for ClickHouse");
        return { waiting: true };
      }
    };
    workers.push(new Worker("analytics-export", exporter, { ...workerOpts, concurrency: 1 }));
  } else {
    // libSQL: completed hours are summed into check_result_hour, so charts and uptime over days never read every result.
    const rollup = async () => {
      const out = await analytics.rollup();
      if (out.behind) logger.info(out, "hourly rollup continues at its next run");
      return out;
    };
    workers.push(new Worker("analytics-export", rollup, { ...workerOpts, concurrency: 1 }));
  }
  for (const w of workers) {
    w.on("error", (err) => logger.warn({ err: err.message, queue: w.name }, "worker"));
    w.on("failed", (job, err) => {
      if (w.name !== QUEUES.notify) logger.error({ jobId: job?.id, queue: w.name, err: err.message }, "job failed");
    });
  }

  const started = await listenOnEnv(app, env, {
    logger,
    handleSignals: opts.handleSignals,
    onShutdown: async () => {
      const closed = Promise.all(workers.map((w) => w.close()));
      // Sent alerts and mails stop waiting for the database to record them: exiting in the middle of that wait would send them again.
      for (const w of workers) w.cancelAllJobs("shutting down");
      await closed;
      await Promise.all(Object.values(queues).map((q) => q.close()));
      connection.disconnect();
      subscriber.disconnect();
      db.$client.close();
    },
  });
  // Durable schedules: BullMQ job schedulers, upserted at every start (after the HTTP port is up, so
  // /healthz answers while Redis is still away).
  const schedules = Promise.all([
    // A pass at once: deadlines that passed while no workflows ran are decided now, and ask for the next.
    askHeartbeatPass(queues.heartbeats),
    queues.heartbeats.upsertJobScheduler(
      "heartbeats",
      { every: env.HEARTBEAT_SAFETY_TICK_MS },
      { name: "heartbeats", opts: { removeOnComplete: 100, removeOnFail: 100 } },
    ),
    queues.maintenance.upsertJobScheduler("sweep", { every: env.SWEEP_INTERVAL_MS }, { name: "sweep" }),
    queues.alertTimers.upsertJobScheduler("alert-timers", { every: env.ALERT_TICK_MS }, { name: "alert-timers" }),
    queues.maintenance.upsertJobScheduler("probe-health", { every: env.PROBE_HEALTH_INTERVAL_MS }, { name: "probe-health" }),
    queues.maintenance.upsertJobScheduler("retention", { every: env.RETENTION_INTERVAL_MS }, { name: "retention" }),
    queues.maintenance.upsertJobScheduler("subscriber-mail", { every: env.SUBSCRIBER_MAIL_INTERVAL_MS }, { name: "subscriber-mail" }),
    queues.analyticsExport.upsertJobScheduler(
      "analytics-export",
      { every: isClickHouse(analytics) ? env.ANALYTICS_EXPORT_INTERVAL_MS : ROLLUP_EVERY_MS },
      { name: "analytics-export" },
    ),
  ]).catch((err) => logger.error({ err: (err as Error).message }, "could not set up schedules"));
  return { ...started, queues, workers, ctx, schedules };
}
