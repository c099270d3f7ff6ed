import type { Db } from "@vigil/db-schema";
import type { EgressPolicy } from "@vigil/egress";
import type { NotifierEnv } from "@vigil/notifier";
import type { NotifyJob } from "@vigil/queue";
import type { Logger } from "@vigil/service";
import type { Counter, Histogram } from "prom-client";

export interface WorkflowContext {
  db: Db;
  logger: Logger;
  notifierEnv: NotifierEnv;
  /** What alert deliveries may not reach: this instance's database, Redis and analytics. */
  egress: EgressPolicy;
  /** What anonymous status-page subscribers' URLs may reach: public addresses and SUBSCRIBER_ALLOW_PRIVATE only. */
  subscriberEgress: EgressPolicy;
  notifyQueue(jobs: NotifyJob[]): Promise<void>;
  /** Runs one alert's requests within the NOTIFY_CONCURRENCY requests in flight at once. */
  sending<T>(send: () => Promise<T>): Promise<T>;
  /** How long the queue waits before a notify job's next attempt (the same figure its backoff uses). */
  retryDelay(jobId: string, attemptsMade: number): number;
  metrics: {
    deliveries: Counter<"outcome">;
    evaluationLag: Histogram;
  };
}
