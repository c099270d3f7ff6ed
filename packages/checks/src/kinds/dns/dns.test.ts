import { EgressPolicy } from "@vigil/egress";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck } from "../../index";
import { startDnsServer, type TestDnsServer } from "../../testing/dns-server";
import { checkKinds } from "../index";
import { DnsCheck, DnsRequest } from "./index";

const servers: TestDnsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function zone() {
  const server = await startDnsServer();
  servers.push(server);
  server.zone.set("api.example.test", [
    { type: "A", address: "192.0.2.10" },
    { type: "A", address: "192.0.2.11" },
    { type: "AAAA", address: "2001:db8::10" },
    { type: "MX", priority: 10, exchange: "mail.example.test" },
    { type: "TXT", data: "v=spf1 -all" },
  ]);
  server.zone.set("www.example.test", [{ type: "CNAME", domain: "api.example.test" }]);
  server.zone.set("example.test", [
    { type: "NS", ns: "ns1.example.test" },
    { type: "CAA", flags: 0, tag: "issue", value: "letsencrypt.org" },
    {
      type: "SOA",
      primary: "ns1.example.test",
      admin: "hostmaster.example.test",
      serial: 2026112501,
      refresh: 7200,
      retry: 900,
      expiration: 1209600,
      minimum: 300,
    },
  ]);
  server.zone.set("_sip._tcp.example.test", [{ type: "SRV", priority: 10, weight: 5, port: 5060, target: "sip.example.test" }]);
  server.zone.set("empty.example.test", []);
  return server;
}

const check = (server: TestDnsServer, input: Record<string, unknown>) =>
  DnsCheck.parse({ kind: "dns", retry: 0, timeoutMs: 2000, resolver: { host: "127.0.0.1", port: server.port }, ...input });

describe("DNS checks", () => {
  it("a DNS monitor whose A records contain the expected addresses succeeds and reports the query time", async () => {
    const server = await zone();
    const result = await runCheck(
      check(server, {
        name: "api.example.test",
        assertions: [
          { kind: "answer", compare: "contains", target: ["192.0.2.10"] },
          { kind: "answer", compare: "eq", target: ["192.0.2.11", "192.0.2.10"] },
          { kind: "answerCount", compare: "eq", target: 2 },
        ],
      }),
    );
    expect(result.status).toBe("success");
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.timings?.dns).toBe(result.latencyMs);
    expect(result.assertions?.every((a) => a.ok)).toBe(true);
    expect(server.queries).toEqual(["udp api.example.test A"]);
  });

  it.each([
    ["AAAA", "api.example.test", "2001:db8::10"],
    ["CNAME", "www.example.test", "api.example.test"],
    ["MX", "api.example.test", "10 mail.example.test"],
    ["TXT", "api.example.test", "v=spf1 -all"],
    ["NS", "example.test", "ns1.example.test."],
    ["SOA", "example.test", "ns1.example.test hostmaster.example.test 2026112501 7200 900 1209600 300"],
    ["CAA", "example.test", '0 issue "letsencrypt.org"'],
    ["SRV", "_sip._tcp.example.test", "10 5 5060 sip.example.test"],
  ])("a %s record is read and compared as a zone file writes it", async (recordType, name, record) => {
    const server = await zone();
    const result = await runCheck(check(server, { name, recordType, assertions: [{ kind: "answer", compare: "eq", target: [record] }] }));
    expect(result.errorMessage).toBeUndefined();
    expect(result.status).toBe("success");
  });

  it("an answer that differs from the expected set is an error naming both sets", async () => {
    const server = await zone();
    const result = await runCheck(
      check(server, { name: "api.example.test", assertions: [{ kind: "answer", compare: "eq", target: ["192.0.2.10"] }] }),
    );
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe('DNS: answer: expected eq ["192.0.2.10"], got ["192.0.2.10","192.0.2.11"] for api.example.test A');
  });

  it("a name that does not exist is an error that says NXDOMAIN", async () => {
    const server = await zone();
    const result = await runCheck(check(server, { name: "gone.example.test" }));
    expect(result).toMatchObject({ status: "error", errorMessage: "DNS: NXDOMAIN for gone.example.test" });
  });

  it("NXDOMAIN stated as the expected response code makes a missing name a success", async () => {
    const server = await zone();
    const result = await runCheck(check(server, { name: "gone.example.test", assertions: [{ kind: "rcode", target: "NXDOMAIN" }] }));
    expect(result.status).toBe("success");
    const present = await runCheck(check(server, { name: "api.example.test", assertions: [{ kind: "rcode", target: "NXDOMAIN" }] }));
    expect(present).toMatchObject({
      status: "error",
      errorMessage: "DNS: rcode: expected eq NXDOMAIN, got NOERROR for api.example.test A",
    });
  });

  it("a name with no records of the type is an error saying so", async () => {
    const server = await zone();
    const result = await runCheck(check(server, { name: "empty.example.test", recordType: "MX" }));
    expect(result).toMatchObject({ status: "error", errorMessage: "DNS: no MX records for empty.example.test" });
  });

  it("a truncated UDP answer is asked again over TCP and its records are judged", async () => {
    const server = await zone();
    server.truncated.add("api.example.test");
    const result = await runCheck(
      check(server, { name: "api.example.test", assertions: [{ kind: "answerCount", compare: "eq", target: 2 }] }),
    );
    expect(result.status).toBe("success");
    expect(server.queries).toEqual(["udp api.example.test A", "tcp api.example.test A"]);
  });

  it("a resolver that never answers is an error after the monitor's timeout", async () => {
    const server = await zone();
    server.silent = true;
    const started = performance.now();
    const result = await runCheck(check(server, { name: "api.example.test", timeoutMs: 400 }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`DNS: query api.example.test A to 127.0.0.1:${server.port} timed out after 400 ms`);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("a slower answer than the latency assertion allows is an error naming the latency", async () => {
    const server = await zone();
    const result = await runCheck(check(server, { name: "api.example.test", assertions: [{ kind: "latency", compare: "lt", target: 0 }] }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^DNS: latency: expected lt 0 ms, got \d+ ms for api\.example\.test A$/);
  });

  it("a resolver at the instance's own address is refused and never asked", async () => {
    const server = await zone();
    const policy = await EgressPolicy.create({ instance: [{ name: "redis", url: `redis://127.0.0.1:${server.port}` }] });
    const result = await runCheck(check(server, { name: "api.example.test" }), { egress: policy });
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`DNS: target 127.0.0.1:${server.port} is this instance's redis; refused`);
    expect(server.queries).toEqual([]);
  });

  it("its OTLP attributes name the question and the resolver", async () => {
    const server = await zone();
    const def = check(server, { name: "api.example.test", recordType: "AAAA" });
    expect(checkKinds.dns.attributes(def, await runCheck(def))).toEqual({
      "dns.question.name": "api.example.test",
      "dns.question.type": "AAAA",
      "server.address": "127.0.0.1",
      "server.port": server.port,
    });
  });

  it("bad fields are refused naming the field and the rule", () => {
    const issues = (input: unknown) => DnsRequest.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(issues({ name: "api.example.com", recordType: "PTR" })).toEqual([
      "recordType: must be one of A, AAAA, CNAME, MX, TXT, NS, SOA, CAA, SRV",
    ]);
    expect(issues({ name: "api.example.com", resolver: "1.1.1.1:70000" })).toEqual(["resolver: port must be 1-65535"]);
    expect(issues({ name: "not a name" })).toEqual(["name: must be a domain name, e.g. api.example.com"]);
    expect(DnsRequest.parse({ name: "api.example.com", recordType: "mx", resolver: "::1" })).toEqual({
      name: "api.example.com",
      recordType: "MX",
      resolver: "[::1]:53",
    });
  });
});
