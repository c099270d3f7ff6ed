import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import {
  DenyListError,
  EgressPolicy,
  EgressRefusedError,
  egressDispatcher,
  egressHttpAgent,
  parseDenyList,
  parseInstanceUrls,
} from "./index";

describe("PROBE_DENY", () => {
  it("denies the listed address on the listed port only, and every port when none is given", async () => {
    const policy = await EgressPolicy.create({ deny: parseDenyList("10.0.0.0/8:5432, 192.168.1.10:6379,[fd00::/8]:8123,172.16.0.5") });
    expect(await policy.refusal("10.20.30.40", 5432)).toBe("on this location's deny list (PROBE_DENY 10.0.0.0/8:5432)");
    expect(await policy.refusal("10.20.30.40", 5433)).toBeUndefined();
    expect(await policy.refusal("::ffff:10.1.1.1", 5432)).toMatch(/^on this location's deny list/);
    expect(await policy.refusal("192.168.1.10", 6379)).toMatch(/192\.168\.1\.10:6379/);
    expect(await policy.refusal("192.168.1.11", 6379)).toBeUndefined();
    expect(await policy.refusal("fd12::1", 8123)).toMatch(/\[fd00::\/8\]:8123/);
    expect(await policy.refusal("172.16.0.5", 443)).toMatch(/172\.16\.0\.5\)$/);
  });

  it.each([
    ["10.0.0.0/33:5432", '"10.0.0.0/33:5432": prefix must be 0-32 for IPv4'],
    ["10.0.0.0/8:0", '"10.0.0.0/8:0": the port must be 1-65535'],
    ["10.0.0.0/8:http", '"10.0.0.0/8:http": the port must be 1-65535'],
    ["database:5432", '"database:5432": must be an IP address or CIDR block such as 10.0.0.0/8 or [fd00::/8]'],
    ["fd00::1:80", '"fd00::1:80": write cidr:port (IPv6 in brackets), e.g. 10.0.0.0/8:5432 or [fd00::/8]:6379'],
  ])("%s is refused with the entry and the rule", (text, message) => {
    expect(() => parseDenyList(text)).toThrow(new DenyListError(message));
  });

  it("an empty list denies nothing", async () => {
    expect(parseDenyList(" , ")).toEqual([]);
  });
});

describe("the instance's own endpoints", () => {
  it("a loopback database is refused on its port through every address that reaches it, other ports stay open", async () => {
    const policy = await EgressPolicy.create({ instance: [{ name: "database", url: "http://127.0.0.1:8080" }] });
    for (const address of ["127.0.0.1", "127.9.9.9", "::1", "0.0.0.0", "::", "::ffff:127.0.0.1", "::ffff:7f00:1"])
      expect(await policy.refusal(address, 8080), address).toBe("this instance's database");
    expect(await policy.refusal("127.0.0.1", 8081)).toBeUndefined();
    expect(await policy.refusal("10.0.0.1", 8080)).toBeUndefined();
  });

  it("a name is resolved: localhost's Redis is refused on 6379 with its reason", async () => {
    const policy = await EgressPolicy.create({ instance: parseInstanceUrls("redis=redis://localhost") });
    await expect(policy.assertAllowed("localhost", ["127.0.0.1"], 6379)).rejects.toThrow(
      new EgressRefusedError("localhost:6379 (127.0.0.1)", "this instance's redis"),
    );
  });

  it("PROBE_INSTANCE_URLS entries must be name=url with a port the scheme implies or spells", () => {
    expect(() => parseInstanceUrls("http://127.0.0.1:8080")).toThrow(/write name=url, e.g. database=http:\/\/127.0.0.1:8080/);
    expect(() => parseInstanceUrls("db=ftp://host")).toThrow('db: "ftp://host" needs a host and a port');
  });
});

describe("HTTP clients that go through the policy", () => {
  async function database() {
    let connections = 0;
    const server = createServer((_req, res) => res.end("rows"));
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const policy = await EgressPolicy.create({ instance: [{ name: "database", url: `http://127.0.0.1:${port}` }] });
    return { port, policy, connections: () => connections, close: () => new Promise((r) => server.close(r)) };
  }

  it("undici through the dispatcher is refused before connecting", async () => {
    const db = await database();
    try {
      await expect(request(`http://localhost:${db.port}/`, { method: "POST", dispatcher: egressDispatcher(db.policy) })).rejects.toThrow(
        `target localhost:${db.port} (127.0.0.1) is this instance's database; refused`,
      );
      expect(db.connections()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("node:http through the agent (the OTLP exporter's) is refused before connecting, other targets pass", async () => {
    const db = await database();
    const other = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const agent = await egressHttpAgent(db.policy, "http:");
    const get = (port: number) =>
      new Promise<string>((resolve, reject) => {
        httpRequest({ host: "127.0.0.1", port, agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(String(res.statusCode)));
        })
          .on("error", reject)
          .end();
      });
    try {
      await expect(get(db.port)).rejects.toThrow(`target 127.0.0.1:${db.port} is this instance's database; refused`);
      expect(db.connections()).toBe(0);
      await expect(get((other.address() as AddressInfo).port)).resolves.toBe("200");
    } finally {
      agent.destroy();
      await db.close();
      await new Promise((r) => other.close(r));
    }
  });
});

describe("public only (anonymous subscribers' URLs)", () => {
  it("refuses loopback, private, link-local, CGNAT, multicast and unspecified addresses, naming the range", async () => {
    const policy = await EgressPolicy.create({ publicOnly: { setting: "SUBSCRIBER_ALLOW_PRIVATE" } });
    const refused = {
      "127.0.0.1": "loopback address (127.0.0.0/8)",
      "::1": "loopback address (::1/128)",
      "::ffff:127.0.0.1": "loopback address (127.0.0.0/8)",
      "10.1.2.3": "private network address (10.0.0.0/8)",
      "172.20.0.1": "private network address (172.16.0.0/12)",
      "192.168.1.1": "private network address (192.168.0.0/16)",
      "fd12::1": "private network address (fc00::/7)",
      "100.64.0.1": "carrier-grade NAT address (100.64.0.0/10)",
      "169.254.169.254": "link-local address (169.254.0.0/16)",
      "fe80::1": "link-local address (fe80::/10)",
      "224.0.0.1": "multicast address (224.0.0.0/4)",
      "0.0.0.0": "unspecified address (0.0.0.0/8)",
      "::": "unspecified address (::/128)",
    };
    for (const [address, range] of Object.entries(refused))
      expect(await policy.refusal(address, 80), address).toBe(`a ${range}, not a public one (SUBSCRIBER_ALLOW_PRIVATE does not allow it)`);
    for (const address of ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "172.32.0.1", "100.128.0.1"])
      expect(await policy.refusal(address, 443), address).toBeUndefined();
  });

  it("the operator's allowed ranges pass, but never the instance's own endpoints", async () => {
    const policy = await EgressPolicy.create({
      instance: [{ name: "redis", url: "redis://127.0.0.1:6379" }],
      publicOnly: { allow: ["127.0.0.0/8", "10.0.0.0/8"] },
    });
    expect(await policy.refusal("127.0.0.1", 8443)).toBeUndefined();
    expect(await policy.refusal("10.9.9.9", 80)).toBeUndefined();
    expect(await policy.refusal("127.0.0.1", 6379)).toBe("this instance's redis");
    expect(await policy.refusal("192.168.0.1", 80)).toMatch(/^a private network address/);
  });

  it("a name that resolves to loopback is refused before any connection, and reaches it once its range is allowed", async () => {
    let connections = 0;
    const receiver = createServer((_req, res) => res.end("ok"));
    receiver.on("connection", () => connections++);
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const strict = await EgressPolicy.create({ publicOnly: {} });
      await expect(request(`http://localhost:${port}/`, { method: "POST", dispatcher: egressDispatcher(strict) })).rejects.toThrow(
        /is a loopback address \((127\.0\.0\.0\/8|::1\/128)\), not a public one; refused/,
      );
      expect(connections).toBe(0);
      const allowed = await EgressPolicy.create({ publicOnly: { allow: ["127.0.0.0/8", "::1"] } });
      const res = await request(`http://127.0.0.1:${port}/`, { method: "POST", dispatcher: egressDispatcher(allowed) });
      expect(res.statusCode).toBe(200);
      await res.body.text();
      expect(connections).toBe(1);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
