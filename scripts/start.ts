// `pnpm start`: the whole service on its embedded defaults, one process runner, logs prefixed by service.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRedis } from "@vigil/queue";
import { sqldBinary } from "@vigil/sqld";
import concurrently, { type ConcurrentlyCommandInput } from "concurrently";
import { buildServices, SERVICE_BUNDLES } from "./build-services";
import { DATA_DIR, DATABASE_URL, PORTS, REDIS_URL, ROOT, SERVER_URL } from "./local";

async function redisAnswers(url: string): Promise<boolean> {
  const redis = createRedis(url, "subscriber", {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch (err) {
    // A Redis that wants a password is there: the services will say what is missing.
    return /NOAUTH/.test((err as Error).message);
  } finally {
    redis.disconnect();
  }
}

function onPath(bin: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

mkdirSync(DATA_DIR, { recursive: true });
const commands: ConcurrentlyCommandInput[] = [];

if (!(await redisAnswers(REDIS_URL))) {
  const u = new URL(REDIS_URL);
  const local = ["127.0.0.1", "localhost", "::1"].includes(u.hostname);
  if (!local || !onPath("redis-server")) {
    console.error(`vigil: no Redis answers at ${REDIS_URL}; install it (apt-get install redis-server) or set REDIS_URL`);
    process.exit(1);
  }
  mkdirSync(`${DATA_DIR}/redis`, { recursive: true });
  commands.push({
    name: "redis",
    command: `redis-server --bind 127.0.0.1 --port ${u.port || 6379} --dir "${DATA_DIR}/redis" --appendonly yes --save ""`,
  });
}

console.log("vigil: building the dashboard and status page (cached after the first run)…");
// Another `next build` of the same app (a second start, or the browser tests) makes ours fail at
// once: wait for it and build again (then mostly from cache) instead of giving up.
for (let deadline = Date.now() + 10 * 60_000; ; ) {
  const build = spawnSync(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@vigil/dashboard", "--filter=@vigil/status-page", "--output-logs=errors-only"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" } },
  );
  const out = `${build.stdout}${build.stderr}`;
  if (build.status === 0) break;
  if (!out.includes("Another next build process is already running") || Date.now() > deadline) {
    process.stderr.write(out);
    console.error("vigil: the dashboard or status page did not build (above)");
    process.exit(1);
  }
  console.log("vigil: another build of the web apps is running; waiting for it…");
  await new Promise((r) => setTimeout(r, 5000));
}

console.log("vigil: compiling the services (cached after the first run)…");
try {
  await buildServices();
} catch (err) {
  console.error(`vigil: the services did not compile: ${(err as Error).message}`);
  process.exit(1);
}

/** The sign-in secret: the operator's AUTH_SECRET, else one made on the first run and kept (mode 600) under .data. */
function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = `${DATA_DIR}/auth-secret`;
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  chmodSync(file, 0o600);
  return readFileSync(file, "utf8").trim();
}

/**
 * sqld keeps a replication log beside the database (for replicas, which a local run has none of) and
 * compacts it only past 200 MB by default: at ~17 KB of log per stored result that is most of the disk.
 * Compacted every minute or past 16 MB, and the WAL checkpointed every minute, disk stays near the live data.
 */
const SQLD_LOG_FLAGS = "--max-log-size 16 --max-log-duration 60 --checkpoint-interval-s 60";

const runId = randomUUID();
const env = { DATABASE_URL, REDIS_URL, VIGIL_RUN_ID: runId };
const local = "127.0.0.1";
const web = {
  ...env,
  AUTH_SECRET: authSecret(),
  // The workspace the local setup made: the first person to sign in owns it and sees what the CLI created.
  LOCAL_WORKSPACE: "local",
  // With no mail transport, the local run prints sign-in links to the dashboard's log.
  LOG_SIGN_IN_LINKS: "true",
  PUBLIC_INGEST_URL: SERVER_URL,
};
commands.push(
  {
    name: "db",
    command: `"${sqldBinary()}" --db-path "${DATA_DIR}/db.sqld" --http-listen-addr ${local}:${PORTS.db} --grpc-listen-addr ${local}:${PORTS.dbGrpc} --no-welcome ${SQLD_LOG_FLAGS}`,
    env: { RUST_LOG: "warn" },
  },
  { name: "setup", command: `node ${SERVICE_BUNDLES.setup}`, env },
  {
    name: "workflows",
    command: `node ${SERVICE_BUNDLES.workflows}`,
    env: {
      ...env,
      PORT: String(PORTS.workflows),
      HOST: local,
      DASHBOARD_URL: `http://${local}:${PORTS.dashboard}`,
      STATUS_PAGE_URL: `http://${local}:${PORTS.statusPage}`,
    },
  },
  { name: "server", command: `node ${SERVICE_BUNDLES.server}`, env: { ...env, PORT: String(PORTS.server), HOST: local } },
  {
    name: "dashboard",
    command: `node_modules/.bin/next start -p ${PORTS.dashboard} -H ${local}`,
    cwd: `${ROOT}apps/dashboard`,
    env: {
      ...web,
      PORT: String(PORTS.dashboard),
      HOST: local,
      AUTH_URL: `http://${local}:${PORTS.dashboard}`,
      STATUS_PAGE_URL: `http://${local}:${PORTS.statusPage}`,
    },
  },
  {
    name: "status-page",
    command: `node_modules/.bin/next start -p ${PORTS.statusPage} -H ${local}`,
    cwd: `${ROOT}apps/status-page`,
    env: { ...web, PORT: String(PORTS.statusPage), HOST: local, PUBLIC_URL: `http://${local}:${PORTS.statusPage}` },
  },
  {
    name: "probe",
    command: `node ${SERVICE_BUNDLES.probe}`,
    env: {
      ...env,
      PORT: String(PORTS.probe),
      HOST: local,
      SERVICE_INGEST_URL: SERVER_URL,
      // One request (and one evaluation job) per 5 s of results instead of per second: the per-request work of
      // the server, sqld and workflows is most of the cost of a result; alerts come at most 4 s later.
      PROBE_SEND_INTERVAL_MS: process.env.PROBE_SEND_INTERVAL_MS ?? "5000",
    },
  },
);

// A crashed service is restarted (after 1, 2, 4 … s, logged) while the others keep running; Ctrl-C
// (or SIGTERM) stops them all and exits 0.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => (stopping = true));
const { result } = concurrently(commands, {
  cwd: ROOT,
  prefix: "[{name}]",
  restartTries: 10,
  restartDelay: "exponential",
  prefixColors: ["red", "blue", "gray", "magenta", "green", "cyan", "yellow", "white"],
});
result.then(
  () => process.exit(0),
  () => process.exit(stopping ? 0 : 1),
);
