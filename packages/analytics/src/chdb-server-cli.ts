// `pnpm analytics:chdb`: a local ClickHouse HTTP endpoint on chdb, for running the ClickHouse backend without a
// ClickHouse server (tests, a laptop). Point ANALYTICS_URL at it; the password is ANALYTICS_API_KEY.
//   pnpm analytics:chdb --port 7181 --data .data/analytics
import { parseArgs } from "node:util";
import { loadEnv, z } from "@vigil/config";
import { startChdbServer } from "./chdb-server";
import { AnalyticsEnv } from "./env";

const config = loadEnv(
  AnalyticsEnv.extend({ ANALYTICS_API_KEY: z.string().min(1, "is required: the password clients must present") }),
  "analytics:chdb",
);
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "7181" },
    host: { type: "string", default: "127.0.0.1" },
    data: { type: "string", default: ".data/analytics" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`analytics:chdb: --port must be a port number 0-65535, got "${values.port}"\n`);
  process.exit(1);
}

const server = await startChdbServer({
  path: values.data,
  host: values.host,
  port,
  user: config.ANALYTICS_USER,
  password: config.ANALYTICS_API_KEY,
});
process.stdout.write(`analytics:chdb: ClickHouse ${server.version} (chdb) on ${server.url}, data in ${values.data}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
