// `pnpm start`: the whole service on its embedded defaults, one process runner, logs prefixed by service.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { connect } from "node:net";
import { sqldBinary } from "@vigil/db-schema/sqld";
import concurrently, { type ConcurrentlyCommandInput } from "concurrently";
import { DATA_DIR, DATABASE_URL, REDIS_URL, ROOT } from "./local";

function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const sock = connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once("error", () => done(false));
    sock.once("connect", () => sock.write("PING\r\n"));
    sock.once("data", (d) => done(d.toString().startsWith("+PONG") || d.toString().startsWith("-NOAUTH")));
  });
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
execFileSync(
  "pnpm",
  ["exec", "turbo", "run", "build", "--filter=@vigil/dashboard", "--filter=@vigil/status-page", "--output-logs=errors-only"],
  {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
  },
);

const runId = randomUUID();
const env = { DATABASE_URL, REDIS_URL, VIGIL_RUN_ID: runId };
commands.push(
  {
    name: "db",
    command: `"${sqldBinary()}" --db-path "${DATA_DIR}/db.sqld" --http-listen-addr 127.0.0.1:8080 --grpc-listen-addr 127.0.0.1:5001 --no-welcome`,
    env: { RUST_LOG: "warn" },
  },
  { name: "setup", command: "node --import tsx scripts/setup-local.ts", env },
  { name: "workflows", command: "node --import tsx apps/workflows/src/main.ts", env: { ...env, PORT: "3000", HOST: "127.0.0.1" } },
  { name: "server", command: "node --import tsx apps/server/src/main.ts", env: { ...env, PORT: "3001", HOST: "127.0.0.1" } },
  {
    name: "dashboard",
    command: "node_modules/.bin/next start -p 3002 -H 127.0.0.1",
    cwd: `${ROOT}apps/dashboard`,
    env: { ...env, PORT: "3002", HOST: "127.0.0.1" },
  },
  {
    name: "status-page",
    command: "node_modules/.bin/next start -p 3003 -H 127.0.0.1",
    cwd: `${ROOT}apps/status-page`,
    env: { ...env, PORT: "3003", HOST: "127.0.0.1" },
  },
  { name: "probe", command: "node --import tsx scripts/local-probe.ts", env: { ...env, PORT: "8081", HOST: "127.0.0.1" } },
);

const { result } = concurrently(commands, {
  cwd: ROOT,
  prefix: "[{name}]",
  killOthersOn: ["failure"],
  prefixColors: ["red", "blue", "gray", "magenta", "green", "cyan", "yellow", "white"],
});
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
