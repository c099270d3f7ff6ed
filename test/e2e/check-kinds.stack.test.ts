// The new check kinds on real processes: each target goes bad → one error webhook; back → one recovered.

import {
  listenHttps,
  listenTls,
  makeCertificate,
  type Running,
  startDnsServer,
  startRdapServer,
  type TestCertificate,
  type TestDnsServer,
  type TestRdapServer,
} from "@vigil/checks/testing";
import { certificateNotAfter } from "@vigil/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookChannel, type Stack, startStack, until, WebhookReceiver } from "./harness";

const DAY = 86_400_000;
const PAYLOAD_KEYS = new Set(["monitor", "cronTimestamp", "status", "statusCode", "latency", "errorMessage"]);

describe("TLS, DNS and domain monitors, end to end", () => {
  let stack: Stack;
  const hook = new WebhookReceiver();
  let dns: TestDnsServer;
  let rdap: TestRdapServer;
  let tls: Running & { use: (c: TestCertificate) => void };
  let web: Running;
  let fresh: TestCertificate;
  let dying: TestCertificate;

  beforeAll(async () => {
    [fresh, dying] = await Promise.all([makeCertificate(60), makeCertificate(5)]);
    [dns, rdap, tls, web] = await Promise.all([startDnsServer(), startRdapServer(), listenTls(fresh), listenHttps(fresh), hook.start()]);
    dns.zone.set("api.example.test", [{ type: "A", address: "192.0.2.10" }]);
    stack = await startStack(["iad"]);
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await Promise.all([hook.stop(), dns?.close(), rdap?.close(), tls?.close(), web?.close()]);
  });

  it("each kind alerts once when its target goes bad and once when it is back, with the spec's payload", { timeout: 420_000 }, async () => {
    await hookChannel(stack, hook, "/");
    // The registration is 3 days from expiry from the start; the DNS and TLS targets are healthy until their first results are in.
    rdap.expiries.set("vigil-e2e.test", Date.now() + 3 * DAY + DAY / 2);
    const common = { frequency: "30s", regions: ["iad"], retry: 0, timeout: "3s", channels: ["hook"] };
    const create = async (body: Record<string, unknown>) => {
      const res = await stack.api("POST", "/v1/monitors", { ...common, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    const ids = {
      dns: await create({
        key: "api-dns",
        kind: "dns",
        request: { name: "api.example.test", recordType: "A", resolver: `127.0.0.1:${dns.port}` },
        assertions: [{ kind: "answer", compare: "contains", target: ["192.0.2.10"] }],
      }),
      tls: await create({
        key: "tls-cert",
        kind: "tls",
        request: { host: "127.0.0.1", port: tls.port },
        assertions: [
          { kind: "certificate", property: "valid", target: false }, // the test's certificates are self-signed
          { kind: "certificate", property: "expiresIn", compare: "gt", target: 7 },
        ],
      }),
      domain: await create({ key: "domain", kind: "domain", request: { domain: "vigil-e2e.test", rdapUrl: rdap.base, alertDays: 30 } }),
    };
    const https = await create({
      key: "website",
      kind: "http",
      request: { url: `https://127.0.0.1:${web.port}/` },
      assertions: [{ kind: "certificate", property: "valid", target: false }],
    });
    // The API shows each monitor as it was given.
    const shown = await stack.api("GET", `/v1/monitors/${ids.dns}`);
    expect(shown.body.request).toEqual({ name: "api.example.test", recordType: "A", resolver: `127.0.0.1:${dns.port}` });

    const results = async (id: number) =>
      Number(
        (await stack.db.$client.execute({ sql: "select count(*) as n from check_result where monitor_id = ?", args: [id] })).rows[0]!.n,
      );
    await until(
      "first results of the DNS, TLS and HTTPS monitors",
      async () => (await results(ids.dns)) > 0 && (await results(ids.tls)) > 0 && (await results(https)) > 0,
      90_000,
    );
    // The certificate's end is kept for the dashboard's "days left", for HTTPS and TLS monitors alike.
    const notAfter = Math.floor(fresh.notAfter.getTime() / 1000) * 1000;
    expect(await certificateNotAfter(stack.db, stack.workspaceId, https)).toBe(notAfter);
    expect(await certificateNotAfter(stack.db, stack.workspaceId, ids.tls)).toBe(notAfter);
    expect(await certificateNotAfter(stack.db, stack.workspaceId + 1, ids.tls)).toBeNull();
    expect(hook.of(ids.dns)).toEqual([]);
    expect(hook.of(ids.tls)).toEqual([]);

    dns.zone.delete("api.example.test");
    tls.use(dying);
    await until("three errors", () => [ids.dns, ids.tls, ids.domain].every((id) => hook.of(id).includes("error")), 120_000);

    dns.zone.set("api.example.test", [{ type: "A", address: "192.0.2.10" }]);
    tls.use(fresh);
    rdap.expiries.set("vigil-e2e.test", Date.now() + 365 * DAY);
    await until("three recoveries", () => [ids.dns, ids.tls, ids.domain].every((id) => hook.of(id).includes("recovered")), 120_000);
    await new Promise((r) => setTimeout(r, 3_000));

    for (const id of Object.values(ids)) expect(hook.of(id)).toEqual(["error", "recovered"]);
    const error = (id: number) => hook.deliveries.find((d) => d.monitorId === id && d.status === "error")!.body;
    expect(error(ids.dns)).toMatchObject({
      monitor: { id: ids.dns, name: "api-dns", url: `api.example.test A @127.0.0.1:${dns.port}` },
      status: "error",
      errorMessage: "DNS: NXDOMAIN for api.example.test",
    });
    expect(error(ids.tls)).toMatchObject({
      monitor: { id: ids.tls, name: "tls-cert", url: `127.0.0.1:${tls.port}` },
      errorMessage: expect.stringMatching(/^TLS: certificate expiresIn: expected gt 7 days, got 5 days/),
    });
    expect(error(ids.domain)).toMatchObject({
      monitor: { id: ids.domain, name: "domain", url: "vigil-e2e.test" },
      errorMessage: expect.stringMatching(/^domain: vigil-e2e\.test expires in 3 days \(\d{4}-\d{2}-\d{2}\), under 30 days$/),
    });
    for (const d of hook.deliveries) {
      expect(
        [...Object.keys(d.body)].every((k) => PAYLOAD_KEYS.has(k)),
        d.raw,
      ).toBe(true);
      expect(typeof d.body.cronTimestamp).toBe("number");
      if (d.status === "recovered") expect(d.body.errorMessage).toBeUndefined();
    }
  });
});
