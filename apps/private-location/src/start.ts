import { metricsRefusal } from "@vigil/config";
import { createLogger, createServiceApp, listenOnEnv, type Started } from "@vigil/service";
import type { ProbeEnv } from "./env";
import { Probe } from "./probe";

/** The probe with its `/healthz`, `/metrics` and `/status`, syncing with the server at once. */
export async function startProbe(env: ProbeEnv, opts: { handleSignals?: boolean } = {}): Promise<Started> {
  const logger = createLogger("private-location", env.LOG_LEVEL);
  const { app, registry } = createServiceApp("private-location", logger, (auth) => metricsRefusal(auth, env.VIGIL_METRICS_TOKEN));
  const probe = await Probe.open(env, logger, registry);
  app.get("/status", (c) => c.json(probe.status()));
  // The kept monitor list is in force before the probe answers anyone.
  await probe.connect();
  const started = await listenOnEnv(app, env, {
    logger,
    onShutdown: () => probe.stop(),
    handleSignals: opts.handleSignals,
  });
  logger.info(
    { ingestUrl: env.SERVICE_INGEST_URL, dataDir: env.PROBE_DATA_DIR, concurrency: env.PROBE_CONCURRENCY },
    "probe started: syncing monitors with the server",
  );
  return started;
}
