import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsHeaders, startTestServer, type TestServer } from "./testing";

describe("the server's /metrics and /healthz on its public port", () => {
  let s: TestServer;
  let unset: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    // The operator never set a token: metrics stay closed, the service still starts.
    unset = await startTestServer({ VIGIL_METRICS_TOKEN: "" }, s.database);
  }, 120_000);
  afterAll(async () => {
    await unset?.close();
    await s?.close();
  });

  it("an anonymous visitor gets 401 and no request counts; Prometheus with the operator's token gets them", async () => {
    expect((await s.call("GET", "/v1/monitors")).status).toBe(200);
    for (const authorization of [undefined, "Bearer not-the-token-at-all-000000", `Basic ${metricsHeaders().authorization!.slice(7)}`]) {
      const res = await fetch(`${s.url}/metrics`, { headers: authorization ? { authorization } : {} });
      const text = await res.text();
      expect([res.status, res.headers.get("www-authenticate")], String(authorization)).toEqual([401, 'Bearer realm="metrics"']);
      expect(text).not.toContain("vigil_http_requests_total");
      expect(text).toContain("VIGIL_METRICS_TOKEN");
    }
    const scraped = await fetch(`${s.url}/metrics`, { headers: metricsHeaders() });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/vigil_http_requests_total\{[^}]*route="\/v1\/monitors"/);
  });

  it("with no VIGIL_METRICS_TOKEN set, every scrape is refused with a line saying to set it", async () => {
    const res = await fetch(`${unset.url}/metrics`, { headers: metricsHeaders() });
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/^\/metrics is off: set VIGIL_METRICS_TOKEN/);
  });

  it("/healthz stays open and says ok and the service's name, nothing about its insides", async () => {
    const res = await fetch(`${s.url}/healthz`);
    expect([res.status, await res.json()]).toEqual([200, { status: "ok", service: "server" }]);
  });
});
