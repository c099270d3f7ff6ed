import type { Analytics } from "@vigil/analytics";
import type { ApiKeyScope, LocationKeys, PingWriter, Workspace } from "@vigil/core";
import type { Db } from "@vigil/db-schema";
import type { EgressPolicy } from "@vigil/egress";
import type { NotifierEnv } from "@vigil/notifier";
import type { EvaluateProducer, ProbeBus } from "@vigil/queue";
import type { RateLimiter } from "@vigil/rate-limit";
import type { Logger } from "@vigil/service";
import type { Counter, Registry } from "prom-client";
import type { PingWatermark } from "./ping-watermark";

export interface ServerMetrics {
  requests: Counter<"method" | "route" | "status">;
  ingestRows: Counter<"outcome">;
  errors: Counter<"kind">;
}

export interface ServerDeps {
  db: Db;
  bus: ProbeBus;
  evaluate: EvaluateProducer;
  analytics: Analytics;
  logger: Logger;
  registry: Registry;
  metrics: ServerMetrics;
  notifierEnv: NotifierEnv;
  /** What channel tests may not reach: this instance's database, Redis and analytics. */
  egress: EgressPolicy;
  /** Rate limits shared with the other processes through Redis. */
  limiter: RateLimiter;
  /** Longest a probe long-poll is held open. */
  probeWaitMs: number;
  /** Pings received and not yet stored: the liveness row never runs ahead of them. */
  pings: PingWatermark;
  /** Pings stored together when they arrive while a write is under way. */
  pingWriter: PingWriter;
  /** Tells workflows that pings were stored, so they are decided now rather than at the safety tick. */
  pingsStored(): void;
  /** Probe keys of results batches, checked again by each batch's write. */
  locationKeys: LocationKeys;
}

export interface ProbeLocation {
  id: number;
  workspaceId: number;
  name: string;
  region: string;
  /** Set when the key was not read in this request (a results batch): the batch's write checks it. */
  keyHash?: string;
}

export type Env = {
  Variables: {
    deps: ServerDeps;
    workspace: Workspace;
    actor: string;
    apiKeyId: number;
    apiKeyName: string;
    apiKeyScopes: ApiKeyScope[];
    location: ProbeLocation;
  };
};
