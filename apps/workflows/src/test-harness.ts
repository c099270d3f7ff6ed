// Test-only: workflows as a real process, a controllable webhook receiver, results fed as the server would.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createChannel, createMonitors, createPrivateLocation, createWorkspace, recordResults, setLimits } from "@vigil/core";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { until } from "@vigil/testing";
import { Service, serviceBundle } from "@vigil/testing/service";

export { until };

import { createRedis, EvaluateProducer } from "@vigil/queue";
import { ulid } from "ulid";

export interface Received {
  body: Record<string, unknown>;
  raw: string;
  headers: IncomingMessage["headers"];
  at: number;
}

/** Records every completed webhook delivery; can refuse, hold or answer with a status. */
export class Receiver {
  received: Received[] = [];
  /** Every request that reached the receiver, answered or not (a held one may never be answered). */
  arrived: Received[] = [];
  private server?: Server;
  private sockets = new Set<Socket>();
  private held: { res: ServerResponse; raw: string; headers: IncomingMessage["headers"] }[] = [];
  /** How many more requests to answer at once; the rest are held open (not counted) until released. */
  answerBudget = Number.POSITIVE_INFINITY;
  status = 200;
  /** How long each answer takes. */
  delayMs = 0;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (d) => (raw += d));
      req.on("end", () => {
        if (this.status < 300) this.arrived.push({ body: JSON.parse(raw), raw, headers: req.headers, at: Date.now() });
        if (this.answerBudget <= 0) {
          this.held.push({ res, raw, headers: req.headers });
          return;
        }
        this.answerBudget--;
        if (this.delayMs > 0) setTimeout(() => this.answer(res, raw, req.headers), this.delayMs);
        else this.answer(res, raw, req.headers);
      });
    });
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(port, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }

  private answer(res: ServerResponse, raw: string, headers: IncomingMessage["headers"]) {
    res.writeHead(this.status).end("ok", () => {
      if (this.status < 300) this.received.push({ body: JSON.parse(raw), raw, headers, at: Date.now() });
    });
  }

  get heldCount() {
    return this.held.length;
  }

  /** Answers the held requests now, with `status`. */
  releaseHeld() {
    for (const { res, raw, headers } of this.held.splice(0)) this.answer(res, raw, headers);
  }

  /** Drops held requests without an answer: their sender never learns they arrived. */
  dropHeld() {
    for (const { res } of this.held.splice(0)) res.socket?.destroy();
  }

  async stop(): Promise<void> {
    this.dropHeld();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = undefined;
  }

  url(path = "/hook") {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

/** Workflows from its production bundle (apps/workflows/dist/main.js), that the test may kill and start again. */
export class WorkflowsProcess extends Service {
  constructor(env: Record<string, string>) {
    super({ name: "workflows", entry: serviceBundle("workflows"), env, healthTimeoutMs: 30_000 });
  }

  /** Spawns it; the tests wait for health themselves (`waitHealthy`). */
  override start(waitHealthy = false): Promise<this> {
    return super.start(waitHealthy);
  }

  /** Everything it wrote so far. */
  get output(): string {
    return this.log;
  }

  waitHealthy(timeoutMs?: number): Promise<void> {
    return this.healthy(timeoutMs);
  }
}

export async function workflowsEnv(databaseUrl: string, redisUrl: string, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    QUEUE_PREFIX: `t-${randomBytes(4).toString("hex")}`,
    NOTIFY_BACKOFF_MS: "500",
    SWEEP_INTERVAL_MS: "1000",
    JOB_LOCK_MS: "2000",
    DASHBOARD_URL: "http://127.0.0.1:3002",
    ...extra,
  };
}

/** A workspace with `n` TCP monitors on one location, all linked to one webhook channel. */
export async function seed(t: TestDatabase, n: number, webhookUrl: string) {
  const ws = (await createWorkspace(t.db, { name: "alerts" }, "operator")).id;
  await setLimits(t.db, ws, "unlimited", "operator");
  const { location } = await createPrivateLocation(t.db, ws, { name: "edge", region: "iad" }, "operator");
  const monitors = (
    await createMonitors(
      t.db,
      ws,
      Array.from({ length: n }, (_, i) => ({
        key: `m${i}`,
        name: `Monitor ${i}`,
        kind: "tcp",
        frequency: "30s",
        regions: ["iad"],
        request: { host: "db.internal", port: 5432 + i },
      })),
      "u",
    )
  ).map((m) => m.id);
  await createChannel(t.db, ws, { name: "hook", kind: "webhook", config: { url: webhookUrl }, monitors }, "u");
  return { ws, location: { id: location.id, workspaceId: ws, region: "iad" }, monitors };
}

/** What the server does on ingest: store the results, then queue their evaluation. */
export async function ingest(
  t: TestDatabase,
  producer: EvaluateProducer | null,
  location: { id: number; workspaceId: number; region: string },
  results: {
    monitorId: number;
    cronTimestamp: number;
    status: "success" | "degraded" | "error";
    errorMessage?: string;
    statusCode?: number;
    latencyMs?: number;
  }[],
) {
  const out = await recordResults(t.db, location, {
    results: results.map((r) => ({ id: ulid(), startedAt: r.cronTimestamp, attempts: 1, latencyMs: 5, ...r })),
  });
  if (producer) await producer.add(out.toEvaluate).catch(() => {});
  return out;
}

export function producerFor(redisUrl: string, prefix: string) {
  const redis = createRedis(redisUrl, "producer");
  redis.on("error", () => {});
  return { producer: new EvaluateProducer(redis, prefix), close: () => redis.disconnect() };
}

/**
 * A test database, a webhook receiver and a workflows process (not started yet) on them with `extra` variables,
 * `n` monitors alerting to the receiver (or to `hookAt(databaseUrl)`); undoing it all is pushed onto `cleanups`.
 */
export async function startAlertStack(
  cleanups: (() => Promise<void> | void)[],
  n: number,
  redisUrl: string,
  extra: Record<string, string> = {},
  hookAt?: (db: string) => string,
) {
  const t = await startTestDatabase();
  const receiver = new Receiver();
  await receiver.start();
  const env = await workflowsEnv(t.url, redisUrl, extra);
  const wf = new WorkflowsProcess(env);
  const { producer, close } = producerFor(redisUrl, env.QUEUE_PREFIX);
  cleanups.push(
    () => t.close(),
    () => receiver.stop(),
    () => wf.kill(),
    close,
  );
  const seeded = await seed(t, n, hookAt?.(t.url) ?? receiver.url());
  return { t, receiver, wf, producer, ...seeded };
}

/** Every monitor of the stack reports an error at the slot `cronTimestamp`. */
export const allMonitorsDown = (s: Awaited<ReturnType<typeof startAlertStack>>, cronTimestamp: number) =>
  ingest(
    s.t,
    s.producer,
    s.location,
    s.monitors.map((monitorId) => ({ monitorId, cronTimestamp, status: "error" as const, errorMessage: "down" })),
  );
