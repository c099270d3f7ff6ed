import { loadEnv } from "@vigil/config";
import { createDb } from "@vigil/db-schema";
import { createLogger, createServiceApp, listen } from "@vigil/service";
import { WorkflowsEnv } from "./env";

const env = loadEnv(WorkflowsEnv, "workflows");
const logger = createLogger("workflows", env.LOG_LEVEL);
const db = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
const { app } = createServiceApp("workflows", logger);
await listen(app, { port: env.PORT, host: env.HOST, logger, onShutdown: async () => db.$client.close() });
