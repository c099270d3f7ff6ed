import { monitor } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitor, createMonitors, listMonitors, monitorsForLocation, updateMonitor, ValidationError } from "../index";
import { unlimitedWorkspace } from "../testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

const workspace = () => unlimitedWorkspace(t.db);
const base = { frequency: "1m", regions: ["iad"] };

describe("TLS, DNS and domain monitors", () => {
  it("each reads back as it was given, with its defaults, and the probe gets its check", async () => {
    const ws = await workspace();
    const dns = await createMonitor(
      t.db,
      ws,
      {
        ...base,
        kind: "dns",
        request: { name: "api.example.com", recordType: "mx", resolver: "1.1.1.1" },
        assertions: [{ kind: "rcode", target: "NOERROR" }],
      },
      "u",
    );
    expect(dns).toMatchObject({
      kind: "dns",
      request: { name: "api.example.com", recordType: "MX", resolver: "1.1.1.1:53" },
      assertions: [{ kind: "rcode", compare: "eq", target: "NOERROR" }],
    });
    const tls = await createMonitor(
      t.db,
      ws,
      { ...base, kind: "tls", request: { host: "mail.example.com", port: 587, starttls: "smtp" } },
      "u",
    );
    expect(tls).toMatchObject({ kind: "tls", request: { host: "mail.example.com", port: 587, starttls: "smtp" }, assertions: [] });
    const domain = await createMonitor(t.db, ws, { ...base, kind: "domain", request: { domain: "Example.com" } }, "u");
    expect(domain).toMatchObject({ kind: "domain", request: { domain: "example.com", alertDays: 30 } });

    const checks = (await monitorsForLocation(t.db, { workspaceId: ws, region: "iad" })).map((m) => m.check);
    expect(checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "dns", name: "api.example.com", recordType: "MX", resolver: { host: "1.1.1.1", port: 53 } }),
        expect.objectContaining({ kind: "tls", host: "mail.example.com", port: 587, starttls: "smtp" }),
        expect.objectContaining({ kind: "domain", domain: "example.com", alertDays: 30 }),
      ]),
    );
  });

  it("a monitor that changes kind keeps none of its old kind's fields", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, { ...base, kind: "tcp", request: { host: "db.internal", port: 5432 } }, "u");
    const dns = await updateMonitor(t.db, ws, m.id, { kind: "dns", request: { name: "db.internal" } }, "u");
    expect(dns.request).toEqual({ name: "db.internal", recordType: "A" });
    const [row] = await t.db.select().from(monitor).where(eq(monitor.id, m.id));
    expect(row).toMatchObject({ options: { name: "db.internal", recordType: "A" }, host: null, port: null });
    const tls = await updateMonitor(
      t.db,
      ws,
      m.id,
      { kind: "tls", request: { host: "db.internal", port: 5432, starttls: "postgres" } },
      "u",
    );
    expect(tls.request).toEqual({ host: "db.internal", port: 5432, starttls: "postgres" });
    const [after] = await t.db.select().from(monitor).where(eq(monitor.id, m.id));
    expect(after).toMatchObject({ options: { starttls: "postgres" }, host: "db.internal", port: 5432, url: null });
  });

  it("bad fields are refused naming the field and the rule, and nothing is written", async () => {
    const ws = await workspace();
    const refused = async (request: Record<string, unknown>, kind: string) => {
      const err = await createMonitors(t.db, ws, [{ ...base, kind, request }], "u").catch((e) => e);
      expect(err).toBeInstanceOf(ValidationError);
      return err.issues;
    };
    expect(await refused({ name: "api.example.com", recordType: "PTR" }, "dns")).toEqual([
      { path: "request.recordType", message: "must be one of A, AAAA, CNAME, MX, TXT, NS, SOA, CAA, SRV" },
    ]);
    expect(await refused({ host: "mail.example.com", port: 0 }, "tls")).toEqual([{ path: "request.port", message: "must be 1-65535" }]);
    expect(await refused({ domain: "example.com", rdapUrl: "file:///etc/passwd" }, "domain")).toEqual([
      { path: "request.rdapUrl", message: "must be an http:// or https:// RDAP base URL" },
    ]);
    expect(await listMonitors(t.db, ws)).toEqual([]);
  });
});
