import { loadEnv } from "@vigil/config";
import { createDb } from "@vigil/db-schema";
import { createLogger, createServiceApp, listen } from "@vigil/service";
import { ServerEnv } from "./env";

const env = loadEnv(ServerEnv, "server");
const logger = createLogger("server", env.LOG_LEVEL);
const db = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
const { app } = createServiceApp("server", logger);
await listen(app, { port: env.PORT, host: env.HOST, logger, onShutdown: async () => db.$client.close() });
