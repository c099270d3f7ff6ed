import { EgressPolicy } from "@vigil/egress";
import { afterEach, describe, expect, it } from "vitest";
import { runCheck } from "../../index";
import { startRdapServer, type TestRdapServer } from "../../testing/rdap-server";
import { DomainCheck, DomainRequest } from "./index";
import { rdapBaseFor } from "./run";

const DAY = 86_400_000;
const servers: TestRdapServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const rdap = async () => {
  const s = await startRdapServer();
  servers.push(s);
  return s;
};
// Each test its own domain names: healthy answers are remembered for 6 hours across checks.
let n = 0;
const fresh = () => `example-${process.pid}-${++n}.com`;
const check = (server: TestRdapServer, domain: string, input: Record<string, unknown> = {}) =>
  DomainCheck.parse({ kind: "domain", domain, rdapUrl: server.base, retry: 0, timeoutMs: 2000, ...input });

describe("domain expiry checks", () => {
  it("a registration a year away succeeds and says how many days are left", async () => {
    const server = await rdap();
    const domain = fresh();
    server.expiries.set(domain, Date.now() + 365 * DAY + DAY / 2);
    const result = await runCheck(check(server, domain));
    expect(result.status).toBe("success");
    expect(result.assertions?.[0]?.message).toMatch(/^domain expires in 365 days \(\d{4}-\d{2}-\d{2}\)$/);
    expect(server.hits).toEqual([`/rdap/domain/${domain}`]);
  });

  it("a registration inside the alert window is an error naming the days left; inside the warning window, degraded", async () => {
    const server = await rdap();
    const domain = fresh();
    server.expiries.set(domain, Date.now() + 10 * DAY + DAY / 2);
    const error = await runCheck(check(server, domain, { alertDays: 14 }));
    expect(error.status).toBe("error");
    expect(error.errorMessage).toMatch(new RegExp(`^domain: ${domain} expires in 10 days \\(\\d{4}-\\d{2}-\\d{2}\\), under 14 days$`));
    const warn = await runCheck(check(server, domain, { alertDays: 7, warnDays: 30 }));
    expect(warn.status).toBe("degraded");
  });

  it("a healthy answer is reused for 6 hours whatever the frequency; a failing one is asked again, so a renewal is seen", async () => {
    const server = await rdap();
    const healthy = fresh();
    server.expiries.set(healthy, Date.now() + 200 * DAY);
    for (let i = 0; i < 3; i++) expect((await runCheck(check(server, healthy))).status).toBe("success");
    expect(server.hits.filter((h) => h.endsWith(healthy))).toHaveLength(1);

    const expiring = fresh();
    server.expiries.set(expiring, Date.now() + 3 * DAY);
    expect((await runCheck(check(server, expiring))).status).toBe("error");
    server.expiries.set(expiring, Date.now() + 365 * DAY); // renewed
    expect((await runCheck(check(server, expiring))).status).toBe("success");
    expect(server.hits.filter((h) => h.endsWith(expiring))).toHaveLength(2);
  });

  it("an expired registration says when it expired", async () => {
    const server = await rdap();
    const domain = fresh();
    server.expiries.set(domain, Date.parse("2020-01-01T00:00:00Z"));
    const result = await runCheck(check(server, domain));
    expect(result.errorMessage).toBe(`domain: ${domain} expired on 2020-01-01`);
  });

  it("a domain the registry does not know is an error naming the RDAP 404", async () => {
    const server = await rdap();
    const result = await runCheck(check(server, "unknown.com"));
    expect(result.errorMessage).toBe(`domain: unknown.com not found in the registry (RDAP 404 from ${server.origin})`);
  });

  it("an RDAP URL at the instance's own address is refused and never asked", async () => {
    const server = await rdap();
    const policy = await EgressPolicy.create({ instance: [{ name: "analytics", url: server.origin }] });
    const result = await runCheck(check(server, fresh()), { egress: policy });
    expect(result.errorMessage).toBe(
      `domain: RDAP query to ${server.origin} failed: target 127.0.0.1:${server.port} is this instance's analytics; refused`,
    );
    expect(server.hits).toEqual([]);
  });

  it("without an RDAP URL the registry comes from the shipped IANA bootstrap file", () => {
    expect(rdapBaseFor("example.com")).toBe("https://rdap.verisign.com/com/v1/");
    expect(rdapBaseFor("www.example.org")).toBe("https://rdap.publicinterestregistry.org/rdap/");
    expect(rdapBaseFor("example.invalid")).toBeUndefined();
    // IANA's whole file, not a handful of registries: country codes and new generic TLDs resolve too.
    expect(rdapBaseFor("example.co.uk")).toBe("https://rdap.nominet.uk/uk/");
    expect(rdapBaseFor("shop.example.music")).toBe("http://rdap.centralnic.com/music/");
  });

  it("bad fields are refused naming the field", () => {
    const issues = (input: unknown) => DomainRequest.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ domain: "not a domain" })).toEqual(["domain: must be a registered domain name, e.g. example.com"]);
    expect(issues({ domain: "example.com", rdapUrl: "ftp://x" })).toEqual(["rdapUrl: must be an http:// or https:// RDAP base URL"]);
    expect(issues({ domain: "example.com", alertDays: 30, warnDays: 10 })).toEqual(["warnDays: must be more than alertDays"]);
    expect(DomainRequest.parse({ domain: "Example.COM." })).toEqual({ domain: "example.com", alertDays: 30 });
  });
});
