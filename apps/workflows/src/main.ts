import { loadEnv } from "@vigil/config";
import { WorkflowsEnv } from "./env";
import { startWorkflows } from "./workflows";

await startWorkflows(loadEnv(WorkflowsEnv, "workflows"));
