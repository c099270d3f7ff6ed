import { randomInt } from "node:crypto";
import { analyticsFromEnv } from "@vigil/analytics";
import { pingEndpoint } from "@vigil/api-contract";
import { metricsRefusal } from "@vigil/config";
import { LocationKeys, markReceiverAlive, PingWriter, resolveQueuePrefix } from "@vigil/core";
import { createDb, openSecrets } from "@vigil/db-schema";
import { EgressPolicy } from "@vigil/egress";
import { NotifierEnv } from "@vigil/notifier";
import { createRedis, EvaluateProducer, HeartbeatPasses, ProbeBus } from "@vigil/queue";
import { createRateLimiter } from "@vigil/rate-limit";
import { createLogger, createServiceApp, listenOnEnv } from "@vigil/service";
import { Counter } from "prom-client";
import { mountApi } from "./app";
import type { ServerDeps } from "./context";
import type { ServerEnv } from "./env";
import { locationSlotsMissed } from "./location-metrics";
import { PingWatermark } from "./ping-watermark";

/** Builds and starts the server; returns a handle so tests can run it in-process. */
export async function startServer(env: ServerEnv, opts: { handleSignals?: boolean } = {}) {
  const logger = createLogger("server", env.LOG_LEVEL);
  const db = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN, { uncompressed: true });
  const { app, registry } = createServiceApp("server", logger, (auth) => metricsRefusal(auth, env.VIGIL_METRICS_TOKEN));
  const metrics = {
    requests: new Counter({
      name: "vigil_http_requests_total",
      help: "HTTP requests",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    ingestRows: new Counter({
      name: "vigil_ingest_rows_total",
      help: "Results received from probes",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    errors: new Counter({
      name: "vigil_server_errors_total",
      help: "Errors by kind",
      labelNames: ["kind"] as const,
      registers: [registry],
    }),
  };
  locationSlotsMissed(db, registry);
  const prefix = await resolveQueuePrefix(db, env.QUEUE_PREFIX, (err) =>
    logger.warn({ err: err.message }, "waiting for the database to name the queues"),
  );
  // Monitors and channels carry secrets: a key that cannot read them all stops the start.
  await openSecrets(db, env.VIGIL_SECRET_KEY);
  const redis = createRedis(env.REDIS_URL, "producer");
  const sub = createRedis(env.REDIS_URL, "subscriber");
  for (const r of [redis, sub]) r.on("error", (err) => logger.warn({ err: err.message }, "redis"));
  const evaluate = new EvaluateProducer(redis, prefix);
  const heartbeatPasses = new HeartbeatPasses(redis, prefix);
  const deps: ServerDeps = {
    db,
    bus: new ProbeBus(redis, sub, prefix),
    evaluate,
    analytics: analyticsFromEnv(db, env),
    logger,
    registry,
    metrics,
    notifierEnv: NotifierEnv.parse(env),
    egress: await EgressPolicy.forInstance(env),
    limiter: createRateLimiter(redis, prefix),
    probeWaitMs: env.PROBE_WAIT_MS,
    pings: new PingWatermark(),
    pingWriter: new PingWriter(db),
    pingsStored: () => heartbeatPasses.ask(),
    locationKeys: new LocationKeys(),
  };
  pingEndpoint.base = env.PING_BASE_URL;
  mountApi(app, deps, { trustedProxies: env.TRUSTED_PROXIES });
  const started = await listenOnEnv(app, env, {
    logger,
    handleSignals: opts.handleSignals,
    onShutdown: async () => {
      clearInterval(alive);
      await evaluate.close();
      await heartbeatPasses.close();
      redis.disconnect();
      sub.disconnect();
      db.$client.close();
    },
  });
  // Liveness for heartbeat deadlines, written once pings can be answered (a re-armed deadline counts from here).
  // `upSince` restarts after any second the database could not be written, since pings could not be stored
  // then either (workflows re-arm deadlines that fell in such a gap).
  let upSince: number | null = null;
  // Its own row: with several servers, workflows wait for the slowest live one (combineReceivers).
  const receiverId = randomInt(1, 2 ** 47);
  let writing = false;
  let livenessDown = false;
  const alive = setInterval(() => {
    if (writing) return;
    writing = true;
    const now = Date.now();
    markReceiverAlive(db, upSince ?? now, deps.pings.through(now), receiverId)
      .then(() => {
        if (livenessDown) logger.info({}, "ping liveness written again; heartbeat deadlines proceed");
        livenessDown = false;
        upSince ??= now;
      })
      .catch((err) => {
        // Once per outage: missed deadlines wait (and are re-armed) until the server vouches for itself again.
        if (!livenessDown)
          logger.warn({ err: (err as Error).message }, "could not write the ping server's liveness; heartbeat deadlines wait");
        livenessDown = true;
        upSince = null;
      })
      .finally(() => (writing = false));
  }, 1000);
  alive.unref();
  return { ...started, deps };
}
