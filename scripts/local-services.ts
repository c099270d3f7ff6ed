// The local run's Node services in one process: setup, then workflows, the server and the probe. One process
// instead of three saves two Node runtimes (~150 MB) and their idle wake-ups; the launcher restarts it whole,
// and each service still listens on its own port with its own /healthz and /metrics. Compose keeps one
// container per service.
import { parseEnv } from "@vigil/config";
import { ProbeEnv, startProbe } from "@vigil/private-location";
import { ServerEnv, startServer } from "@vigil/server";
import type { Started } from "@vigil/service";
import { startWorkflows, WorkflowsEnv } from "@vigil/workflows";
import { DATA_DIR, DATABASE_URL, PORTS, PUBLIC_URLS, REDIS_URL, SERVER_URL } from "./local";
import { setupLocal } from "./setup-local";

const local = "127.0.0.1";
// The launcher hands over the database's token (.data/db-token).
const DATABASE_AUTH_TOKEN = process.env.DATABASE_AUTH_TOKEN;
// Ping URLs and alert links name the ports this run listens on.
const base = { ...process.env, DATABASE_URL, DATABASE_AUTH_TOKEN, REDIS_URL, HOST: local, ...PUBLIC_URLS };

const { state, lines } = await setupLocal(DATABASE_AUTH_TOKEN);
// Plain lines (not JSON logs): the launcher shows them under [setup].
for (const line of lines) console.log(`setup: ${line}`);

const started: Started[] = [];
let stopping: Promise<void> | undefined;
/** Stops the probe first (it hands its last results to the server), then the server, then workflows. */
const stop = () =>
  (stopping ??= (async () => {
    for (const s of [...started].reverse()) await s.close().catch((err) => console.error(`shutdown: ${(err as Error).message}`));
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    setTimeout(() => process.exit(1), 15_000).unref();
    stop().then(() => process.exit(0));
  });

started.push(await startWorkflows(parseEnv(WorkflowsEnv, { ...base, PORT: String(PORTS.workflows) }), { handleSignals: false }));
started.push(await startServer(parseEnv(ServerEnv, { ...base, PORT: String(PORTS.server) }), { handleSignals: false }));
started.push(
  await startProbe(
    parseEnv(ProbeEnv, {
      ...base,
      PORT: String(PORTS.probe),
      SERVICE_KEY: state.serviceKey,
      SERVICE_INGEST_URL: process.env.SERVICE_INGEST_URL || SERVER_URL,
      PROBE_DATA_DIR: process.env.PROBE_DATA_DIR || `${DATA_DIR}/probe`,
      // The probe shares this host with sqld and Redis: its checks must refuse them like the server's channels do.
      PROBE_INSTANCE_URLS: instanceUrls(),
      // One request (and one evaluation job) per 5 s of results instead of per second: the per-request work of
      // the server, sqld and workflows is most of the cost of a result; alerts come at most 4 s later.
      PROBE_SEND_INTERVAL_MS: process.env.PROBE_SEND_INTERVAL_MS ?? "5000",
    }),
    { handleSignals: false },
  ),
);

function instanceUrls() {
  const analytics = process.env.ANALYTICS_URL ? `,analytics=${process.env.ANALYTICS_URL}` : "";
  return `database=${DATABASE_URL},redis=${REDIS_URL}${analytics}`;
}
