import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locationNotice } from "./notice";
import { notify } from "./notify";
import { type CaptureServer, startCaptureServer, TEST_NOW, testEnv } from "./testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 202, body: "{}" }));
});
afterAll(() => server.close());

const location = { id: 7, workspaceId: 3, name: "rack-eu", region: "fra" };

describe("location notices", () => {
  it("a silent location opens one PagerDuty incident keyed by the location, and its return resolves that incident", async () => {
    const env = testEnv(server.url);
    const channel = { kind: "pagerduty", config: { routingKey: "R0UT1NGKEY00000000000000000000AB" } };
    const silent = locationNotice({ state: "silent", location, sinceMs: TEST_NOW - 120_000 }, env.DASHBOARD_URL, TEST_NOW);
    const back = locationNotice({ state: "back", location, sinceMs: TEST_NOW }, env.DASHBOARD_URL, TEST_NOW + 600_000);
    expect(await notify(channel, silent, env)).toMatchObject({ ok: true });
    expect(await notify(channel, back, env)).toMatchObject({ ok: true });
    const [open, resolve] = server.requests.slice(-2).map((r) => JSON.parse(r.body));
    expect(open).toMatchObject({
      event_action: "trigger",
      dedup_key: "vigil-location-7",
      payload: { summary: "Private location rack-eu is silent: none of its probes report" },
    });
    expect(JSON.stringify(open)).toContain("https://vigil.example.com/w/3/locations/7");
    expect(resolve).toEqual({ routing_key: "R0UT1NGKEY00000000000000000000AB", event_action: "resolve", dedup_key: "vigil-location-7" });
  });

  it("a webhook channel is not sent a location notice: its body is monitor status changes only", async () => {
    const before = server.requests.length;
    const notice = locationNotice({ state: "silent", location, sinceMs: TEST_NOW }, "https://vigil.example.com", TEST_NOW);
    expect(await notify({ kind: "webhook", config: { url: `${server.url}/hook` } }, notice, testEnv(server.url))).toEqual({
      ok: false,
      retryable: false,
      error: "a webhook channel receives monitor status changes only",
    });
    expect(server.requests.length).toBe(before);
  });
});
