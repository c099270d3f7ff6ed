// The long-lived half of `pnpm start`, compiled (scripts/dist/launcher.js): runs sqld, the local services, the
// dashboard and the status page (and Redis when none answers), prefixes their logs by service, restarts one
// that crashes while the others keep running, and stops them all on Ctrl-C. Small on purpose: it stays
// resident for the whole run.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { createInterface } from "node:readline";
import { ensureDbKeys, sqldBinary } from "@vigil/sqld";
import { NEXT_START_FLAGS } from "@vigil/testing/next-build";
import { PROXY_SECRET_ENV } from "../packages/rate-limit/src/proxy-header";
import { DATA_DIR, DATABASE_URL, DB_KEYS_DIR, PORTS, PUBLIC_URLS, REDIS_URL, ROOT, SERVER_URL, WEB_IDLE_MS } from "./local";
import { OnDemand } from "./on-demand";

/** Whether something answers Redis's PING at `url` (a Redis that wants a password is there too). */
function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (d) => done(/^(\+PONG|-NOAUTH)/.test(d.toString())));
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

/** The operator's `variable`, else a random 32 bytes made on the first run and kept (mode 600) in .data/<file>. */
function keptSecret(variable: string, file: string, encoding: "base64url" | "base64"): string {
  const set = process.env[variable];
  if (set) return set;
  const path = `${DATA_DIR}/${file}`;
  if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString(encoding), { mode: 0o600 });
  chmodSync(path, 0o600);
  return readFileSync(path, "utf8").trim();
}

interface Command {
  name: string;
  file: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Names a line of output by its JSON `service` field or a `name: ` prefix, else by the command's name. */
  labels?: boolean;
  /** Started on the first connection to `port` and stopped when idle (on-demand.ts); listens on `innerPort`. */
  onDemand?: { port: number; innerPort: number };
}

/** A port the OS says is free now, for a web app behind the launcher's own listener. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * sqld keeps a replication log beside the database (for replicas, which a local run has none of) and
 * compacts it only past 200 MB by default: at ~17 KB of log per stored result that is most of the disk.
 * Compacted every minute or past 16 MB, and the WAL checkpointed every minute, disk stays near the live data.
 */
/**
 * glibc malloc keeps what a process freed: each thread that allocates gets an arena of its own (up to 8 per
 * core), and freed chunks stay resident unless they sit at an arena's top. Two arenas per process.
 */
const MALLOC_ARENAS = { MALLOC_ARENA_MAX: "2" };
/**
 * And for Node: blocks of 64 KB or more (V8's compiler zones at their largest, large buffers) are mapped on
 * their own and given back when freed, instead of glibc's dynamic threshold letting them into the arena,
 * where they stay. At 1,000 monitors the services process went from 176–210 to 168 MB with the same CPU
 * (docs/scaling.md, "Memory: one small machine").
 */
const NODE_MALLOC = { ...MALLOC_ARENAS, MALLOC_MMAP_THRESHOLD_: "65536" };

/**
 * V8 grows the young generation to 2 × 16 MB under a burst (a bulk create, a sync of every monitor) and keeps
 * it. Capped at 2 × 8 MB, the services process peaked 15–40 MB lower at 1,000 monitors, with CPU within the
 * noise of the same run (2 × 2 MB cost 10–15 % more CPU).
 */
const SERVICES_NODE_FLAGS = ["--max-semi-space-size=8"];

const SQLD_LOG_FLAGS = ["--max-log-size", "16", "--max-log-duration", "60", "--checkpoint-interval-s", "60"];

mkdirSync(DATA_DIR, { recursive: true });
// sqld answers only requests with a token signed by this key pair (made on the first start, kept after).
const dbKeys = ensureDbKeys(DB_KEYS_DIR);
const local = "127.0.0.1";
const commands: Command[] = [];

if (!(await redisAnswers(REDIS_URL))) {
  const u = new URL(REDIS_URL);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname) || !onPath("redis-server")) {
    console.error(`vigil: no Redis answers at ${REDIS_URL}; install it (apt-get install redis-server) or set REDIS_URL`);
    process.exit(1);
  }
  mkdirSync(`${DATA_DIR}/redis`, { recursive: true });
  commands.push({
    name: "redis",
    file: "redis-server",
    args: ["--bind", "127.0.0.1", "--port", u.port || "6379", "--dir", `${DATA_DIR}/redis`, "--appendonly", "yes", "--save", ""],
  });
}

// Made once per run and known only to the launcher and the web apps: see OnDemand's proxySecret.
const proxySecret = randomBytes(32).toString("base64url");
const METRICS_TOKEN_FILE = `${DATA_DIR}/metrics-token`;
// Every /metrics of this run answers only with `Authorization: Bearer <token>` (docs/prometheus.md).
const metricsToken = keptSecret("VIGIL_METRICS_TOKEN", "metrics-token", "base64url");
const web = {
  DATABASE_URL,
  DATABASE_AUTH_TOKEN: dbKeys.token,
  REDIS_URL,
  AUTH_SECRET: keptSecret("AUTH_SECRET", "auth-secret", "base64url"),
  // Encrypts stored secrets; losing the file loses them, so it is kept (and backed up) with the database.
  VIGIL_SECRET_KEY: keptSecret("VIGIL_SECRET_KEY", "secret-key", "base64"),
  // The workspace the local setup made: the first person to sign in owns it and sees what the CLI created.
  LOCAL_WORKSPACE: "local",
  // With no mail transport, the local run prints sign-in links to the dashboard's log.
  LOG_SIGN_IN_LINKS: "true",
  PUBLIC_INGEST_URL: SERVER_URL,
  // Ping URLs, alert links and the operator's statements name the ports this run listens on.
  ...PUBLIC_URLS,
  HOST: local,
  VIGIL_METRICS_TOKEN: metricsToken,
};
// Web apps start on their first request and stop when idle, unless VIGIL_WEB_IDLE_S=0 keeps them always on.
const next = async (app: string, port: number, env: Record<string, string>): Promise<Command> => {
  const innerPort = WEB_IDLE_MS > 0 ? await freePort() : port;
  return {
    name: app,
    file: process.execPath,
    args: [
      // Reads the launcher's PROXY header off each connection before Next's server sees it.
      ...(innerPort !== port ? ["--import", `${ROOT}scripts/dist/client-preload.js`] : []),
      "node_modules/next/dist/bin/next",
      "start",
      "-p",
      String(innerPort),
      "-H",
      local,
      ...NEXT_START_FLAGS,
    ],
    cwd: `${ROOT}apps/${app}`,
    env: {
      ...web,
      PORT: String(innerPort),
      ...env,
      ...NODE_MALLOC,
      ...(innerPort !== port ? { [PROXY_SECRET_ENV]: proxySecret } : {}),
    },
    ...(innerPort !== port ? { onDemand: { port, innerPort } } : {}),
  };
};
commands.push(
  {
    name: "db",
    file: sqldBinary(),
    args: [
      "--db-path",
      `${DATA_DIR}/db.sqld`,
      "--http-listen-addr",
      `${local}:${PORTS.db}`,
      ...(PORTS.dbGrpc ? ["--grpc-listen-addr", `${local}:${PORTS.dbGrpc}`] : []),
      "--no-welcome",
      "--auth-jwt-key-file",
      dbKeys.publicKeyFile,
      ...SQLD_LOG_FLAGS,
    ],
    env: { RUST_LOG: "warn", ...MALLOC_ARENAS },
  },
  {
    name: "services",
    file: process.execPath,
    args: [...SERVICES_NODE_FLAGS, `${ROOT}scripts/dist/local-services.js`],
    env: { VIGIL_SECRET_KEY: web.VIGIL_SECRET_KEY, DATABASE_AUTH_TOKEN: dbKeys.token, VIGIL_METRICS_TOKEN: metricsToken, ...NODE_MALLOC },
    labels: true,
  },
  await next("dashboard", PORTS.dashboard, { AUTH_URL: process.env.AUTH_URL || PUBLIC_URLS.DASHBOARD_URL }),
  await next("status-page", PORTS.statusPage, { PUBLIC_URL: process.env.PUBLIC_URL || PUBLIC_URLS.STATUS_PAGE_URL }),
);

console.log(
  process.env.VIGIL_METRICS_TOKEN
    ? "vigil: /metrics answers with Authorization: Bearer $VIGIL_METRICS_TOKEN"
    : `vigil: /metrics answers with Authorization: Bearer <the token in ${METRICS_TOKEN_FILE}>`,
);

const running = new Map<string, ChildProcess>();
const onDemand = new Map<string, OnDemand>();
/** Web apps asked to stop for idleness: their exit is not a crash. */
const idleStopped = new Set<string>();
let stopping = false;
const MAX_QUICK_RESTARTS = 10;

function pipe(c: Command, child: ChildProcess) {
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on("line", (line) => {
      let label = c.name;
      let text = line;
      if (c.labels) {
        const named = /^([a-z-]+): (.*)$/.exec(line);
        if (named) [label, text] = [named[1]!, named[2]!];
        else if (line.startsWith("{")) label = /"service":"([a-z-]+)"/.exec(line)?.[1] ?? label;
      }
      // Next names the port it listens on: behind the launcher's own, that is the one to open.
      if (c.onDemand) text = text.replaceAll(`:${c.onDemand.innerPort}`, `:${c.onDemand.port}`);
      (stream === child.stderr ? process.stderr : process.stdout).write(`[${label}] ${text}\n`);
    });
  }
}

/** Runs `c`; after a crash, starts it again after 1, 2, 4 … 30 s (1 s again once it ran a minute). */
function run(c: Command, attempt = 0) {
  const startedAt = Date.now();
  const child = spawn(c.file, c.args, { cwd: c.cwd ?? ROOT, env: { ...process.env, ...c.env }, stdio: ["ignore", "pipe", "pipe"] });
  running.set(c.name, child);
  pipe(c, child);
  child.once("error", (err) => console.error(`[${c.name}] could not start: ${err.message}`));
  child.once("close", (code, signal) => {
    running.delete(c.name);
    if (stopping) return void (running.size === 0 && process.exit(exitCode));
    if (idleStopped.delete(c.name)) return onDemand.get(c.name)?.exited();
    const quick = Date.now() - startedAt < 60_000;
    const tries = quick ? attempt + 1 : 1;
    console.error(`[${c.name}] exited with code ${signal ?? code}`);
    if (tries > MAX_QUICK_RESTARTS) {
      console.error(`[${c.name}] failed ${MAX_QUICK_RESTARTS} times in a row; stopping everything`);
      return void stop(1);
    }
    const delay = Math.min(30_000, 1000 * 2 ** (tries - 1));
    onDemand.get(c.name)?.exited();
    setTimeout(() => {
      if (stopping) return;
      console.error(`[${c.name}] restarted after ${delay / 1000} s`);
      run(c, tries);
    }, delay);
  });
}

let exitCode = 0;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const o of onDemand.values()) o.close();
  for (const child of running.values()) child.kill("SIGINT");
  if (running.size === 0) process.exit(code);
  // What has not stopped by then is killed; services take a few seconds to hand over their last work.
  setTimeout(() => {
    for (const child of running.values()) child.kill("SIGKILL");
    process.exit(code);
  }, 30_000).unref();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(0));

for (const c of commands) {
  const ports = c.onDemand;
  if (!ports) {
    run(c);
    continue;
  }
  const o = new OnDemand({
    host: local,
    ...ports,
    idleMs: WEB_IDLE_MS,
    start: () => run(c),
    stop: () => {
      idleStopped.add(c.name);
      running.get(c.name)?.kill("SIGINT");
    },
    log: (line) => console.log(`[${c.name}] ${line}`),
    proxySecret,
    metrics: { service: c.name, token: metricsToken },
  });
  onDemand.set(c.name, o);
  await o.listen().catch((err: Error) => {
    console.error(`[${c.name}] cannot listen on ${local}:${ports.port}: ${err.message}`);
    stop(1);
  });
}
