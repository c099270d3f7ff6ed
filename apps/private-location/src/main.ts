import { loadEnv } from "@vigil/config";
import { createLogger, createServiceApp, listen } from "@vigil/service";
import { ProbeEnv } from "./env";

const env = loadEnv(ProbeEnv, "private-location");
const logger = createLogger("private-location", env.LOG_LEVEL);
const { app } = createServiceApp("private-location", logger, () => ({ ingestUrl: env.SERVICE_INGEST_URL }));
await listen(app, { port: env.PORT, host: env.HOST, logger });
