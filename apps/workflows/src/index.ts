// The workflows process for embedding (benchmarks, tests); `./main` runs it as a process.
export { WorkflowsEnv } from "./env";
export { startWorkflows } from "./workflows";
