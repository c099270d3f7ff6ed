// The attacker's review of issue 44 tried every way to spell the loopback host of the instance's database and
// Redis in a member's check and channel. Replayed here on the local run's shape (sqld, Redis, the server and
// the probe on one host): each spelling must be refused, while the same spelling to any other loopback port
// still works, so the refusal comes from the guard and not from a spelling that leads nowhere.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "@vigil/config";
import { createPrivateLocation } from "@vigil/core";
import { workspace } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { ProbeEnv, startProbe } from "@vigil/private-location";
import { startTestServer, type TestServer } from "@vigil/server/testing";
import type { Started } from "@vigil/service";
import { until } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REDIS_PORT = 6379;

/** Hosts that all lead to this machine's loopback, as a URL may spell them. */
const SPELLINGS = [
  "127.0.0.1",
  "localhost",
  "127.1",
  "2130706433",
  "0x7f000001",
  "0177.0.0.1",
  "127.0.0.2",
  "0.0.0.0",
  "0",
  "[::1]",
  "[::]",
  "[::ffff:127.0.0.1]",
  "[0:0:0:0:0:ffff:7f00:1]",
];

let database: TestDatabase;
let server: TestServer;
let probe: Started;
let dataDir: string;
let sqldPort: number;
let bystander: Server;
let bystanderPort: number;
let redirector: Server;

beforeAll(async () => {
  database = await startTestDatabase();
  sqldPort = Number(new URL(database.url).port);
  server = await startTestServer({}, database);
  const { key } = await createPrivateLocation(database.db, server.workspaceId, { name: "local", region: "iad" }, "operator");
  dataDir = mkdtempSync(join(tmpdir(), "vigil-spellings-"));
  probe = await startProbe(
    parseEnv(ProbeEnv, {
      SERVICE_KEY: key,
      SERVICE_INGEST_URL: server.url,
      PORT: "0",
      HOST: "127.0.0.1",
      PROBE_DATA_DIR: dataDir,
      PROBE_INSTANCE_URLS: `database=${database.url},redis=redis://127.0.0.1:${REDIS_PORT}`,
      LOG_LEVEL: "silent",
    }),
    { handleSignals: false },
  );
  // Any other loopback service: every spelling must still reach it (IPv4 and IPv6 alike).
  bystander = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((r) => bystander.listen(0, "::", r));
  bystanderPort = (bystander.address() as AddressInfo).port;
  redirector = createServer((req, res) => res.writeHead(307, { location: `http://${req.url!.slice(1)}/` }).end());
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
}, 60_000);

afterAll(async () => {
  await new Promise((r) => redirector?.close(r));
  await new Promise((r) => bystander?.close(r));
  await probe?.close();
  await server?.close();
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const check = (url: string, body?: string) => ({
  name: "innocent health check",
  kind: "http",
  frequency: "1m",
  regions: ["iad"],
  retry: 0,
  request: body ? { url, method: "POST", body } : { url },
});

const SQL = JSON.stringify({ statements: ["UPDATE workspace SET name = 'pwned'"] });

/** Test now's result, once the probe has picked up its location (409 until then). */
async function testNow(url: string, body?: string) {
  const res = await until(
    "the probe to answer Test now",
    async () => {
      const r = await server.call("POST", "/v1/monitors/test", check(url, body));
      return r.status === 409 ? undefined : r;
    },
    30_000,
  );
  expect(res.status, url).toBe(200);
  return res.body.result as { status: string; errorMessage?: string };
}

describe("no spelling of loopback lets a member's check reach the instance's database or Redis", () => {
  it("every spelling reaches an ordinary loopback service, so none of them fails for another reason", async () => {
    for (const host of SPELLINGS) expect((await testNow(`http://${host}:${bystanderPort}/`)).status, host).toBe("success");
  });

  it("Test now of SQL to sqld's port under every spelling of loopback is refused, and no row changes", async () => {
    for (const host of SPELLINGS) {
      const result = await testNow(`http://${host}:${sqldPort}/`, SQL);
      expect(result.status, host).toBe("error");
      expect(result.errorMessage, host).toMatch(new RegExp(`:${sqldPort}( \\(.*\\))? is this instance's database; refused$`));
    }
    const names = (await database.db.select({ name: workspace.name }).from(workspace)).map((w) => w.name);
    expect(names).not.toContain("pwned");
  });

  it("Test now of a command to Redis's port under every spelling of loopback is refused", async () => {
    for (const host of SPELLINGS) {
      const result = await testNow(`http://${host}:${REDIS_PORT}/`, "PING\r\n");
      expect(result.status, host).toBe("error");
      expect(result.errorMessage, host).toMatch(new RegExp(`:${REDIS_PORT}( \\(.*\\))? is this instance's redis; refused$`));
    }
  });

  it("a redirect to a spelled-out database address is refused at that hop", async () => {
    const redirectorPort = (redirector.address() as AddressInfo).port;
    for (const host of ["2130706433", "[::ffff:127.0.0.1]", "0"]) {
      const result = await testNow(`http://127.0.0.1:${redirectorPort}/${host}:${sqldPort}`, SQL);
      expect(result.status, host).toBe("error");
      expect(result.errorMessage, host).toMatch(/is this instance's database; refused$/);
    }
  });
});

describe("no spelling of loopback lets a channel deliver to the instance's database or Redis", () => {
  it.each([
    ["the database", "2130706433", () => sqldPort, "database"],
    ["the database", "[::ffff:127.0.0.1]", () => sqldPort, "database"],
    ["the database", "0", () => sqldPort, "database"],
    ["Redis", "127.1", () => REDIS_PORT, "redis"],
    ["Redis", "[::1]", () => REDIS_PORT, "redis"],
  ])("a webhook to %s spelled %s fails its test with the refusal", async (_what, host, port, name) => {
    const created = await server.call("POST", "/v1/channels", {
      name: `hook ${host}`,
      kind: "webhook",
      config: { url: `http://${host}:${port()}/` },
    });
    expect(created.status).toBe(201);
    const res = await server.call("POST", `/v1/channels/${created.body.id}/test`);
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).toMatch(new RegExp(`is this instance's ${name}; refused`));
  });
});
