import { AnalyticsEnv } from "@vigil/analytics";
import { env, serviceEnv, z } from "@vigil/config";
import { NotifierEnv } from "@vigil/notifier";

const ms = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

export const WorkflowsEnv = z.object({
  ...NotifierEnv.shape,
  ...AnalyticsEnv.shape,
  /** With ClickHouse: how often new results are copied from libSQL into it. */
  ANALYTICS_EXPORT_INTERVAL_MS: ms(5_000, 500),
  /** The public status site: links in subscriber mail (confirm, unsubscribe, report pages). */
  STATUS_PAGE_URL: env.url("http://127.0.0.1:3003"),
  SUBSCRIBER_MAIL_INTERVAL_MS: ms(15_000, 1000),
  SUBSCRIBER_ALLOW_PRIVATE: env.SUBSCRIBER_ALLOW_PRIVATE,
  ...serviceEnv(3000),
  /**
   * Heartbeat passes run when the server stored pings and about a second after each deadline; while a passed
   * deadline waits for the ping server's proof (or a pass failed), they look again this often.
   */
  HEARTBEAT_TICK_MS: ms(1000, 100),
  /** A pass also runs this often whatever happened: it applies edits and what a lost ask would have. */
  HEARTBEAT_SAFETY_TICK_MS: ms(10_000, 1000),
  QUEUE_PREFIX: env.QUEUE_PREFIX,
  /** At most this many attempts per delivery: 12 doubling from 2 s (capped at 10 min, jittered) span about 40 minutes. */
  NOTIFY_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
  NOTIFY_BACKOFF_MS: ms(2000),
  /** The longest wait between two attempts of a delivery. */
  NOTIFY_BACKOFF_MAX_MS: ms(600_000),
  /**
   * A delivery whose worker died is taken up again after this long (the lock is renewed at half of it while
   * an attempt runs): pending alerts resume within a few seconds of a restart.
   */
  NOTIFY_LOCK_MS: ms(3000, 1000),
  /** Evaluations at once: their writes share commits, so many small ingest batches do not queue behind each other. */
  EVALUATE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  /**
   * Alert requests in flight at once (what receivers see of a burst). Twice as many deliveries are under way: each
   * also waits on shared database round trips before and after its request, which do not hold a request's place.
   */
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(128),
  /** How often pending results and undispatched events are swept up. */
  SWEEP_INTERVAL_MS: ms(15_000, 100),
  /** A job whose worker died is taken up again after this long. */
  JOB_LOCK_MS: ms(30_000, 1000),
  PROBE_HEALTH_INTERVAL_MS: ms(30_000, 100),
  /** How often due reminders, escalation steps and held child alerts are looked at. */
  ALERT_TICK_MS: ms(5_000, 100),
  RETENTION_INTERVAL_MS: ms(3_600_000, 1000),
});
export type WorkflowsEnv = z.infer<typeof WorkflowsEnv>;
