import { loadEnv } from "@vigil/config";
import { exitOnSecretKeyError } from "@vigil/db-schema";
import { WorkflowsEnv } from "./env";
import { startWorkflows } from "./workflows";

await startWorkflows(loadEnv(WorkflowsEnv, "workflows")).catch(exitOnSecretKeyError("workflows"));
