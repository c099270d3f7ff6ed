// The server for embedding (the local run); `./main` runs it as a process.
export { ServerEnv } from "./env";
export { startServer } from "./server";
