import { loadEnv } from "@vigil/config";
import { createLogger, createServiceApp, listen } from "@vigil/service";
import { ProbeEnv } from "./env";
import { Probe } from "./probe";

const env = loadEnv(ProbeEnv, "private-location");
const logger = createLogger("private-location", env.LOG_LEVEL);
const { app, registry } = createServiceApp("private-location", logger, () => ({ ingestUrl: env.SERVICE_INGEST_URL }));
const probe = await Probe.open(env, logger, registry);
app.get("/status", (c) => c.json(probe.status()));
await listen(app, { port: env.PORT, host: env.HOST, logger, onShutdown: () => probe.stop() });
probe.connect();
logger.info(
  { ingestUrl: env.SERVICE_INGEST_URL, dataDir: env.PROBE_DATA_DIR, concurrency: env.PROBE_CONCURRENCY },
  "probe started: syncing monitors with the server",
);
