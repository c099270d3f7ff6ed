import { loadEnv } from "@vigil/config";
import { ServerEnv } from "./env";
import { startServer } from "./server";

await startServer(loadEnv(ServerEnv, "server"));
