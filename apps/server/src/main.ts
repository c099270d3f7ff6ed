import { loadEnv } from "@vigil/config";
import { exitOnSecretKeyError } from "@vigil/db-schema";
import { ServerEnv } from "./env";
import { startServer } from "./server";

await startServer(loadEnv(ServerEnv, "server")).catch(exitOnSecretKeyError("server"));
