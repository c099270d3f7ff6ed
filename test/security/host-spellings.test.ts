// The attacker's review of issue 44 tried every way to spell the loopback host of the instance's database and
// Redis in a member's check and channel. Replayed here on the local run's shape (sqld, Redis, the server and
// the probe on one host): each spelling must be refused, while the same spelling to any other loopback port
// still works, so the refusal comes from the guard and not from a spelling that leads nowhere.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRun, REDIS_PORT, startLocalRun } from "./local-run";

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

let run: LocalRun;
let sqldPort: number;
let bystander: Server;
let bystanderPort: number;
let redirector: Server;

beforeAll(async () => {
  run = await startLocalRun();
  sqldPort = run.sqldPort;
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
  await run?.close();
});

const SQL = JSON.stringify({ statements: ["UPDATE workspace SET name = 'pwned'"] });

const testNow = (url: string, body?: string) => run.testNow({ kind: "http", request: body ? { url, method: "POST", body } : { url } });

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
    expect(await run.workspaceNames()).not.toContain("pwned");
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
    const created = await run.server.call("POST", "/v1/channels", {
      name: `hook ${host}`,
      kind: "webhook",
      config: { url: `http://${host}:${port()}/` },
    });
    expect(created.status).toBe(201);
    const res = await run.server.call("POST", `/v1/channels/${created.body.id}/test`);
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).toMatch(new RegExp(`is this instance's ${name}; refused`));
  });
});
