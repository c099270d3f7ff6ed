// Each Node service's image command, run outside Docker: the build step's bundles (dist/*.js), the compose
// environment (the service's `environment`, filled in from .env.example and the secrets the setup steps
// generate), compose hostnames mapped to 127.0.0.1 and free ports, /keys to a directory of the test. The Next.js apps (dashboard, status page) are built and started by their own tests.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateSecretKey } from "@vigil/db-schema";
import { freePort } from "@vigil/db-schema/testing";
import { type RunningSqld, startSqld } from "@vigil/sqld";
import * as yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

type Service = { command?: string[]; environment?: Record<string, string | null> };
const compose = yaml.load(readFileSync(join(root, "docker-compose.yaml"), "utf8"), {
  schema: yaml.CORE_SCHEMA.withTags([yaml.mergeTag]),
}) as { services: Record<string, Service> };

/** .env as docs/self-hosting.md step 1 leaves it: a copy of .env.example with its secrets generated. */
const dotEnv: Record<string, string> = {};
for (const line of readFileSync(join(root, ".env.example"), "utf8").split("\n")) {
  const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (m) dotEnv[m[1]!] = m[2]!;
}
Object.assign(dotEnv, {
  AUTH_SECRET: "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==",
  // The test's Redis has no password; ioredis goes on when a server needs none.
  REDIS_PASSWORD: "cd".repeat(32),
  ANALYTICS_API_KEY: "ab".repeat(32),
  // Setup fills in the key that encrypts stored secrets (README: Environment).
  VIGIL_SECRET_KEY: generateSecretKey(),
  // And the token Prometheus sends for /metrics.
  VIGIL_METRICS_TOKEN: "ef".repeat(32),
});
/** Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?error}`. */
const interpolate = (text: string, env: Record<string, string>) =>
  text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    if (env[name]) return env[name];
    if (op === "?") throw new Error(`${name}: ${arg}`);
    return op === "-" ? (arg ?? "") : "";
  });

const dataDir = mkdtempSync(join(tmpdir(), "vigil-images-"));
const children: ChildProcess[] = [];
let sqld: RunningSqld;
let hosts: Record<string, string>;

/** The service's command and environment as compose would run it, with its hostnames and ports mapped here. */
function composed(name: string, overrides: Record<string, string> = {}) {
  const service = compose.services[name]!;
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME ?? dataDir };
  for (const [k, v] of Object.entries(service.environment ?? {})) env[k] = interpolate(v ?? "", dotEnv);
  for (const [k, v] of Object.entries(env)) {
    env[k] = v
      .replace(
        /\/\/([^@/]*@)?(database|redis|server|analytics):(\d+)/,
        (_, auth = "", host: string, port: string) => `//${auth}${hosts[`${host}:${port}`]}`,
      )
      .replace(/^\/keys(?=\/|$)/, `${dataDir}/keys`);
  }
  const command = (service.command ?? []).map((part) => part.replace(/^\/app\//, root));
  return { command, env: { ...env, ...overrides } as NodeJS.ProcessEnv };
}

function start(name: string, overrides: Record<string, string>) {
  const { command, env } = composed(name, overrides);
  const child = spawn(command[0]!, command.slice(1), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  children.push(child);
  return { child, output: () => output };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, log: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} within ${timeoutMs} ms\n${log().slice(-2000)}`);
}

const healthz = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
  return res.ok ? ((await res.json()) as { status: string; service: string }) : undefined;
};

/** A one-shot service (db-migrate) as compose runs it. */
async function oneShot(name: string) {
  const { command, env } = composed(name);
  return run(command[0]!, command.slice(1), { cwd: root, env, timeout: 60_000 });
}

/** The operator commands, as `docker compose exec server node /app/apps/server/dist/admin.js …` runs them. */
async function admin(args: string[]): Promise<unknown> {
  const { env } = composed("server");
  const { stdout } = await run("node", [join(root, "apps/server/dist/admin.js"), ...args], { cwd: root, env, timeout: 30_000 });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  // The build step production uses; turbo replays it from its cache when nothing changed.
  await run(
    "pnpm",
    [
      "exec",
      "turbo",
      "run",
      "build",
      "--filter=@vigil/server",
      "--filter=@vigil/workflows",
      "--filter=@vigil/private-location",
      "--filter=@vigil/cli",
      "--output-logs=errors-only",
    ],
    { cwd: root, timeout: 180_000, env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" } },
  );
  // As compose starts it: the db-keys one-shot first, then sqld requiring a token signed by its key.
  await oneShot("db-keys");
  sqld = await startSqld({
    dbPath: join(dataDir, "db", "data.sqld"),
    httpPort: await freePort(),
    authKeyFile: join(dataDir, "keys", "db-jwt.pub"),
  });
  hosts = {
    "database:8080": sqld.url.replace("http://", ""),
    "redis:6379": "127.0.0.1:6379",
    // Nothing listens there: analytics being away must not keep a service from starting.
    "analytics:8123": `127.0.0.1:${await freePort()}`,
  };
}, 240_000);

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
          child.once("exit", () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  await sqld?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe("image commands, run outside Docker with the compose environment", () => {
  const queuePrefix = `images-${process.pid}`;
  let workspaceId: number;
  let serverPort: number;

  it("db-migrate migrates an empty database and exits 0, and a second run finds nothing to do", async () => {
    const first = await oneShot("db-migrate");
    expect(first.stdout).toMatch(/^db-migrate: http:\/\/127\.0\.0\.1:\d+ is up to date/);
    const second = await oneShot("db-migrate");
    expect(second.stdout).toBe(first.stdout);
    // The operator's statements need the token the db-keys one-shot made; without it sqld runs nothing.
    const token = readFileSync(join(dataDir, "keys", "db-token"), "utf8").trim();
    const post = (headers: Record<string, string>) =>
      fetch(`${sqld.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ statements: ["SELECT count(*) FROM workspace"] }),
      });
    expect((await post({})).status).toBe(401);
    const res = await post({ authorization: `Bearer ${token}` });
    expect(await res.json()).toMatchObject([{ results: { columns: ["count(*)"], rows: [[0]] } }]);
  });

  it("the server image's admin command creates a workspace with limits", async () => {
    const created = (await admin(["workspace", "create", "--name", "Ops", "--preset", "unlimited"])) as { id: number; name: string };
    expect(created.name).toBe("Ops");
    workspaceId = created.id;
  });

  it("analytics-deploy runs from its bundle and, with ClickHouse away, exits 1 naming where it tried", async () => {
    const failed = await oneShot("analytics-deploy").then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim()).toBe(
      `analytics:deploy failed: Analytics (ClickHouse at ${hosts["analytics:8123"]}) is unreachable: connect ECONNREFUSED ${hosts["analytics:8123"]}`,
    );
  });

  it("server answers /healthz on its port with Redis ready", async () => {
    serverPort = await freePort();
    hosts["server:3001"] = `127.0.0.1:${serverPort}`;
    const server = start("server", { PORT: String(serverPort), HOST: "127.0.0.1", QUEUE_PREFIX: queuePrefix });
    const body = await waitFor("server healthy", () => healthz(serverPort), server.output);
    expect(body).toMatchObject({ status: "ok", service: "server" });
  });

  it("workflows answers /healthz on its port", async () => {
    const port = await freePort();
    const workflows = start("workflows", { PORT: String(port), HOST: "127.0.0.1", QUEUE_PREFIX: queuePrefix });
    const body = await waitFor("workflows healthy", () => healthz(port), workflows.output);
    expect(body).toMatchObject({ status: "ok", service: "workflows" });
  });

  it("private-location answers /healthz and syncs with the server its SERVICE_INGEST_URL names", async () => {
    const { serviceKey } = (await admin(["location", "--workspace", String(workspaceId), "--name", "edge"])) as { serviceKey: string };
    const port = await freePort();
    const probe = start("private-location", {
      PORT: String(port),
      HOST: "127.0.0.1",
      SERVICE_KEY: serviceKey,
      PROBE_DATA_DIR: join(dataDir, "probe"),
    });
    expect(composed("private-location").env.SERVICE_INGEST_URL).toBe(`http://127.0.0.1:${serverPort}`);
    const body = await waitFor("probe healthy", () => healthz(port), probe.output);
    expect(body).toMatchObject({ status: "ok", service: "private-location" });
    const status = await waitFor(
      "probe synced",
      async () => {
        const s = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as {
          lastSyncAt: number | null;
          syncError: string | null;
        };
        return s.lastSyncAt !== null && s.syncError === null ? s : undefined;
      },
      probe.output,
    );
    expect(status.lastSyncAt).toBeGreaterThan(0);
  });

  it("the CLI image's command, pointed at the server by compose, signs in with an API key", async () => {
    const cli = join(root, "apps/cli/dist/vigil.js");
    const { version } = JSON.parse(readFileSync(join(root, "apps/cli/package.json"), "utf8")) as { version: string };
    expect((await run("node", [cli, "--version"], { cwd: root })).stdout.trim()).toBe(version);
    const { key } = (await admin(["api-key", "create", "--workspace", String(workspaceId)])) as { key: string };
    const { env } = composed("cli", { VIGIL_API_TOKEN: key, HOME: dataDir });
    expect(env.VIGIL_API_URL).toBe(`http://127.0.0.1:${serverPort}`);
    const whoami = await run("node", [cli, "whoami", "--json"], { cwd: root, env, timeout: 30_000 });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ workspace: { id: workspaceId, name: "Ops" } });
  });
});
