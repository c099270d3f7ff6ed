import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { EgressPolicy } from "@vigil/egress";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck, runHttpCheck, runTcpCheck } from "./index";
import { HttpCheck, TcpCheck } from "./kinds";
import { listenHttp } from "./testing/servers";

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A stand-in for the instance's database (answering rows) that counts every connection it accepts. */
async function countingDatabase() {
  const server = createServer((_req, res) => res.end('[{"results":{"rows":[["secret"]]}}]'));
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
  const policy = await EgressPolicy.create({ instance: [{ name: "database", url: `http://127.0.0.1:${port}` }] });
  return { port, policy, connections: () => connections };
}

const sqlCheck = (url: string, extra: Partial<HttpCheck> = {}) =>
  HttpCheck.parse({
    kind: "http",
    url,
    method: "POST",
    body: '{"statements":["SELECT config FROM notification_channel"]}',
    assertions: [{ kind: "jsonBody", path: "$[0].results.rows[0][0]", compare: "eq", target: "x" }],
    retry: 0,
    ...extra,
  });

describe("checks never send bytes to the instance's own endpoints", () => {
  it("an HTTP check to the database's address and port is an error saying so, and the database gets no connection", async () => {
    const db = await countingDatabase();
    const result = await runHttpCheck(sqlCheck(`http://127.0.0.1:${db.port}/`), { egress: db.policy });
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`target 127.0.0.1:${db.port} is this instance's database; refused`);
    expect(result.errorMessage).not.toContain("secret");
    expect(db.connections()).toBe(0);
  });

  it.each([
    ["localhost", (port: number) => `http://localhost:${port}/`],
    ["0.0.0.0", (port: number) => `http://0.0.0.0:${port}/`],
    ["an IPv4-mapped IPv6 address", (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ["another loopback address", (port: number) => `http://127.0.0.2:${port}/`],
  ])("%s reaches the same database and is refused too", async (_name, url) => {
    const db = await countingDatabase();
    const result = await runCheck(sqlCheck(url(db.port)), { egress: db.policy });
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/is this instance's database; refused$/);
    expect(db.connections()).toBe(0);
  });

  it("a redirect to the database is refused at that hop: the first server is asked, the database never", async () => {
    const db = await countingDatabase();
    let asked = 0;
    const hop = await listenHttp((_req, res) => {
      asked++;
      res.writeHead(307, { location: `http://127.0.0.1:${db.port}/` }).end();
    });
    open.push(hop);
    const result = await runHttpCheck(sqlCheck(`${hop.origin}/start`), { egress: db.policy });
    expect(asked).toBe(1);
    expect(db.connections()).toBe(0);
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`target 127.0.0.1:${db.port} is this instance's database; refused`);
  });

  it("loopback in general stays reachable: only the listed port is refused", async () => {
    const db = await countingDatabase();
    const other = await listenHttp((_req, res) => res.end("ok"));
    open.push(other);
    const result = await runHttpCheck(HttpCheck.parse({ kind: "http", url: other.origin, retry: 0 }), { egress: db.policy });
    expect(result.status).toBe("success");
  });

  it("a connect-only TCP check of the database still succeeds (monitoring the stack itself)", async () => {
    const db = await countingDatabase();
    const result = await runTcpCheck(TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: db.port, retry: 0 }), { egress: db.policy });
    expect(result.status).toBe("success");
  });
});

describe("redirects to another origin", () => {
  it("drop every secret-looking header and the ones the user marked secret, and keep the rest", async () => {
    let seen: IncomingHttpHeaders | undefined;
    const target = await listenHttp((req, res) => {
      seen = req.headers;
      res.end("ok");
    });
    const start = await listenHttp((_req, res) => res.writeHead(307, { location: `${target.origin}/landed` }).end());
    open.push(target, start);
    const result = await runHttpCheck(
      HttpCheck.parse({
        kind: "http",
        url: start.origin,
        retry: 0,
        headers: { "X-Api-Key": "k-123", "X-Access-Token": "t-456", "X-Tenant": "acme", "X-Plain": "kept" },
        secretHeaders: ["X-Tenant"],
      }),
    );
    expect(result.status).toBe("success");
    expect(seen?.["x-plain"]).toBe("kept");
    expect(seen?.["x-api-key"]).toBeUndefined();
    expect(seen?.["x-access-token"]).toBeUndefined();
    expect(seen?.["x-tenant"]).toBeUndefined();
  });
});
