// The protocol kinds (ping, gRPC health, WebSocket, PostgreSQL, MySQL/MariaDB, Redis) for `pnpm bench checks`:
// each check's wall time against the raw operation it wraps, alternately in one run (here for the drivers).
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { credentials, makeGenericClientConstructor, Server, ServerCredentials } from "@grpc/grpc-js";
import type { BenchRow } from "@vigil/testing/bench-row";
import { HealthImplementation, service } from "grpc-health-check";
import { Redis } from "ioredis";
import { createConnection } from "mysql2";
import pg from "pg";
import WebSocket, { WebSocketServer } from "ws";
import { runCheck } from "../index";
import { CheckDefinition } from "../kinds";
import type { CheckResult } from "../schema";

const SAMPLES = 200;
const PING_SAMPLES = 40;
const WARMUP = 20;
const POSTGRES = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const MYSQL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const percentile50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const timed = async (op: () => Promise<unknown>) => {
  const started = performance.now();
  await op();
  return performance.now() - started;
};

/** Ours and the raw operation alternately; p50 of each, and how many of ours did not succeed. */
async function compare(samples: number, ours: () => Promise<CheckResult>, raw: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) {
    await ours();
    await raw();
  }
  const a: number[] = [];
  const b: number[] = [];
  let failures = 0;
  for (let i = 0; i < samples; i++) {
    a.push(
      await timed(async () => {
        if ((await ours()).status !== "success") failures++;
      }),
    );
    b.push(await timed(raw));
  }
  return { ours: percentile50(a), raw: percentile50(b), failures };
}

const rawPing = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn("ping", ["-n", "-c", "1", "-W", "1", "127.0.0.1"], { stdio: "ignore" });
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`ping exited ${code}`))));
  });

const HealthClient = makeGenericClientConstructor(service as never, "grpc.health.v1.Health");
const rawGrpc = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
    (client as unknown as { Check: (r: object, cb: (e: Error | null) => void) => void }).Check({ service: "" }, (err) => {
      client.close();
      err ? reject(err) : resolve();
    });
  });

const rawWs = (url: string) =>
  new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once("open", () => {
      ws.terminate();
      resolve();
    });
    ws.once("error", reject);
  });

async function rawPostgres() {
  const c = new pg.Client({ connectionString: POSTGRES });
  await c.connect();
  await c.query({ text: "SELECT 1", rowMode: "array" });
  await c.end();
}

const rawMysql = () =>
  new Promise<void>((resolve, reject) => {
    const c = createConnection({ uri: MYSQL });
    c.query({ sql: "SELECT 1", rowsAsArray: true }, (err) => {
      if (err) reject(err);
      else c.end(() => resolve());
    });
  });

async function rawRedis() {
  const c = new Redis(REDIS, { lazyConnect: true });
  await c.connect();
  await c.ping();
  c.disconnect();
}

export async function protocolRows(): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const health = new HealthImplementation({ "": "SERVING" });
  const grpcServer = new Server();
  health.addToServer(grpcServer);
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
  const def = (input: object) => CheckDefinition.parse({ retry: 0, timeoutMs: 10_000, ...input });
  const cases: [string, number, CheckDefinition, () => Promise<unknown>, string][] = [
    ["ping", PING_SAMPLES, def({ kind: "ping", host: "127.0.0.1", packets: 1 }), rawPing, "raw `ping -c 1` process"],
    [
      "gRPC health",
      SAMPLES,
      def({ kind: "grpc", host: "127.0.0.1", port: grpcPort }),
      () => rawGrpc(grpcPort),
      "raw grpc-js Health/Check, new channel",
    ],
    ["WebSocket", SAMPLES, def({ kind: "websocket", url: wsUrl }), () => rawWs(wsUrl), "raw ws handshake"],
    ["PostgreSQL", SAMPLES, def({ kind: "postgres", connection: POSTGRES }), rawPostgres, "raw pg connect + SELECT 1 + end"],
    ["MySQL/MariaDB", SAMPLES, def({ kind: "mysql", connection: MYSQL }), rawMysql, "raw mysql2 connect + SELECT 1 + end"],
    ["Redis", SAMPLES, def({ kind: "redis", connection: REDIS }), rawRedis, "raw ioredis connect + PING + disconnect"],
  ];
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  try {
    for (const [name, samples, check, raw, baselineName] of cases) {
      const r = await compare(samples, () => runCheck(check), raw);
      rows.push({ metric: `${name} check wall time per check, p50`, unit: "ms", value: r.ours, baseline: r.raw, baselineName });
      failures.push(`${name} ${r.failures}`);
    }
  } finally {
    grpcServer.forceShutdown();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  }
  return {
    rows,
    notes: [
      `Protocol kinds: ${SAMPLES} alternating samples each (ping ${PING_SAMPLES}) after ${WARMUP} warm-up, a new connection every time on both sides; servers in this process (gRPC, WebSocket) or this machine's (PostgreSQL, MariaDB, Redis).`,
      `Non-success protocol checks: ${failures.join(", ")}.`,
    ],
  };
}
