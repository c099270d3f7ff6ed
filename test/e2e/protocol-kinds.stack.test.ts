// Each protocol kind through the real probe, server and workflows: its target goes bad → one error
// webhook with the spec's fields; back → one recovered. Targets are loopback servers this test runs and
// this machine's PostgreSQL, MariaDB and Redis (each with a value the test flips).
import { randomBytes } from "node:crypto";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { Redis } from "ioredis";
import { createConnection } from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { hookChannel, type Stack, startStack, until, WebhookReceiver } from "./harness";

const POSTGRES = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const MYSQL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PAYLOAD_KEYS = new Set(["monitor", "cronTimestamp", "status", "statusCode", "latency", "errorMessage"]);

/** Every target with a switch: `set(false)` makes it fail its check, `set(true)` heals it. */
interface Target {
  monitor: Record<string, unknown>;
  set(up: boolean): Promise<unknown>;
  /** What the error webhook's message starts with. */
  error: RegExp;
  /** What the webhook shows as the monitor's URL. */
  url: RegExp;
}

describe("protocol check kinds, end to end", () => {
  let stack: Stack;
  const hook = new WebhookReceiver();
  const id = randomBytes(4).toString("hex");
  const cleanups: (() => Promise<unknown>)[] = [];
  const targets: Record<string, Target> = {};

  beforeAll(async () => {
    await hook.start();
    stack = await startStack(["iad"]);

    const health = new HealthImplementation({ "shop.Cart": "SERVING" });
    const grpc = new Server();
    health.addToServer(grpc);
    const grpcPort = await new Promise<number>((resolve, reject) =>
      grpc.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    cleanups.push(async () => grpc.forceShutdown());
    targets.grpc = {
      monitor: { kind: "grpc", request: { host: "127.0.0.1", port: grpcPort, service: "shop.Cart" } },
      set: async (up) => health.setStatus("shop.Cart", up ? "SERVING" : "NOT_SERVING"),
      error: /^grpc: NOT_SERVING \(service shop\.Cart\)/,
      url: new RegExp(`^grpc://127\\.0\\.0\\.1:${grpcPort}$`),
    };

    let wsUp = true;
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, verifyClient: (_i, done) => done(wsUp, 503) });
    await new Promise<void>((r) => wss.once("listening", () => r()));
    cleanups.push(() => new Promise<void>((r) => wss.close(() => r())));
    const wsUrl = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/live`;
    targets.websocket = {
      monitor: { kind: "websocket", request: { url: wsUrl } },
      set: async (up) => {
        wsUp = up;
      },
      error: /^websocket: handshake refused with HTTP 503/,
      url: new RegExp(`^${wsUrl}$`),
    };

    const pgAdmin = new pg.Client({ connectionString: POSTGRES });
    await pgAdmin.connect();
    const pgTable = `vigil_e2e_${id}`;
    await pgAdmin.query(`CREATE TABLE ${pgTable} (state text); INSERT INTO ${pgTable} VALUES ('up')`);
    cleanups.push(async () => {
      await pgAdmin.query(`DROP TABLE ${pgTable}`);
      await pgAdmin.end();
    });
    const pgUrl = new URL(POSTGRES);
    targets.postgres = {
      monitor: {
        kind: "postgres",
        request: { connection: POSTGRES, query: `SELECT state FROM ${pgTable}` },
        assertions: [{ kind: "textBody", compare: "eq", target: "up" }],
      },
      set: (up) => pgAdmin.query(`UPDATE ${pgTable} SET state = $1`, [up ? "up" : "down"]),
      error: /^textBody: expected eq "up", got "down"$/,
      url: new RegExp(`^postgres://${pgUrl.hostname}:${pgUrl.port || 5432}/${pgUrl.pathname.slice(1)}$`),
    };

    const my = await createConnection({ uri: MYSQL });
    const myTable = `vigil_e2e_${id}`;
    await my.query(`CREATE TABLE ${myTable} (state varchar(8))`);
    await my.query(`INSERT INTO ${myTable} VALUES ('up')`);
    cleanups.push(async () => {
      await my.query(`DROP TABLE ${myTable}`);
      await my.end();
    });
    targets.mysql = {
      monitor: {
        kind: "mysql",
        request: { connection: MYSQL, query: `SELECT state FROM ${myTable}` },
        assertions: [{ kind: "textBody", compare: "eq", target: "up" }],
      },
      set: (up) => my.query(`UPDATE ${myTable} SET state = ?`, [up ? "up" : "down"]),
      error: /^textBody: expected eq "up", got "down"$/,
      url: /^mysql:\/\/127\.0\.0\.1:3306\/test$/,
    };

    const redis = new Redis(REDIS);
    const key = `vigil-e2e:${id}`;
    await redis.set(key, "up");
    cleanups.push(async () => {
      await redis.del(key);
      redis.disconnect();
    });
    targets.redis = {
      monitor: {
        kind: "redis",
        request: { connection: REDIS, query: `GET ${key}` },
        assertions: [{ kind: "textBody", compare: "eq", target: "up" }],
      },
      set: async (up) => {
        await redis.set(key, up ? "up" : "down");
      },
      error: /^textBody: expected eq "up", got "down"$/,
      url: /^redis:\/\/127\.0\.0\.1:6379\/$/,
    };
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await hook.stop();
  });

  it("each kind's target goes bad: one error webhook; back: one recovered — with exactly the spec's fields", {
    timeout: 300_000,
  }, async () => {
    await hookChannel(stack, hook);
    const ids: Record<string, number> = {};
    for (const [name, t] of Object.entries(targets)) {
      const created = await stack.api("POST", "/v1/monitors", {
        name,
        frequency: "30s",
        regions: ["iad"],
        retry: 0,
        timeout: 5000,
        channels: ["hook"],
        ...t.monitor,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // A connection string is a secret in every answer.
      if ("connection" in (t.monitor.request as object)) expect(created.body.request.connection).toBe("***");
      ids[name] = created.body.id;
    }
    await until(
      "a first successful result for every monitor",
      async () => {
        const rows = await stack.db.$client.execute("select monitor_id, status from check_result");
        return Object.values(ids).every((i) => rows.rows.some((r) => Number(r.monitor_id) === i && r.status === "success"));
      },
      90_000,
    );
    for (const t of Object.values(targets)) await t.set(false);
    await until("every kind's error", () => Object.values(ids).every((i) => hook.of(i).includes("error")), 120_000);
    for (const t of Object.values(targets)) await t.set(true);
    await until("every kind's recovery", () => Object.values(ids).every((i) => hook.of(i).includes("recovered")), 120_000);
    await new Promise((r) => setTimeout(r, 3_000));

    for (const [name, t] of Object.entries(targets)) {
      const monitorId = ids[name]!;
      expect(hook.of(monitorId), name).toEqual(["error", "recovered"]);
      const [error, recovered] = hook.deliveries.filter((d) => d.monitorId === monitorId);
      for (const d of [error!, recovered!]) {
        expect(
          [...Object.keys(d.body)].every((k) => PAYLOAD_KEYS.has(k)),
          d.raw,
        ).toBe(true);
        expect(Object.keys(d.body.monitor as object).sort()).toEqual(["id", "name", "url"]);
        expect((d.body.monitor as { url: string }).url, name).toMatch(t.url);
        expect(typeof d.body.cronTimestamp).toBe("number");
      }
      expect(error!.body.errorMessage, name).toMatch(t.error);
      expect(recovered!.body.errorMessage).toBeUndefined();
    }
  });
});
