import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 202, body: '{"status":"success"}' }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "pagerduty", config: { routingKey: "R0123456789abcdef0123456789ABCDE" } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 202 });
  return server.requests.at(-1);
}

describe("pagerduty channel", () => {
  it("an error triggers a critical event deduplicated per monitor", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/v2/enqueue", [["content-type", "application/json"]], {
        routing_key: "R0123456789abcdef0123456789ABCDE",
        event_action: "trigger",
        dedup_key: "vigil-monitor-42",
        payload: {
          summary: "API health is down: expected status 200, got 503",
          source: "https://api.example.com/health",
          severity: "critical",
          timestamp: "2024-05-01T12:00:00.000Z",
          component: "API health",
          custom_details: {
            Status: "error",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
            "Status code": "503",
            Latency: "1532 ms",
            Error: "expected status 200, got 503",
          },
        },
        client: "Vigil",
        client_url: "https://vigil.example.com/monitors/42",
        links: [
          {
            href: "https://vigil.example.com/monitors/42",
            text: "Open in Vigil",
          },
        ],
      }),
    );
  });

  it("degraded triggers a warning event under the same dedup key", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/v2/enqueue", [["content-type", "application/json"]], {
        routing_key: "R0123456789abcdef0123456789ABCDE",
        event_action: "trigger",
        dedup_key: "vigil-monitor-42",
        payload: {
          summary: "API health is degraded",
          source: "https://api.example.com/health",
          severity: "warning",
          timestamp: "2024-05-01T12:00:00.000Z",
          component: "API health",
          custom_details: {
            Status: "degraded",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
            "Status code": "200",
            Latency: "2450 ms",
          },
        },
        client: "Vigil",
        client_url: "https://vigil.example.com/monitors/42",
        links: [
          {
            href: "https://vigil.example.com/monitors/42",
            text: "Open in Vigil",
          },
        ],
      }),
    );
  });

  it("a recovery resolves the incident under the same dedup key", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/v2/enqueue", [["content-type", "application/json"]], {
        routing_key: "R0123456789abcdef0123456789ABCDE",
        event_action: "resolve",
        dedup_key: "vigil-monitor-42",
      }),
    );
  });

  it("a test triggers an info event under a separate test dedup key", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/v2/enqueue", [["content-type", "application/json"]], {
        routing_key: "R0123456789abcdef0123456789ABCDE",
        event_action: "trigger",
        dedup_key: "vigil-monitor-42-test",
        payload: {
          summary: "Test notification for API health",
          source: "https://api.example.com/health",
          severity: "info",
          timestamp: "2024-05-01T12:00:00.000Z",
          component: "API health",
          custom_details: {
            Status: "test",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
          },
        },
        client: "Vigil",
        client_url: "https://vigil.example.com/monitors/42",
        links: [
          {
            href: "https://vigil.example.com/monitors/42",
            text: "Open in Vigil",
          },
        ],
      }),
    );
  });
});

describe("pagerduty incident lifecycle", () => {
  it("the recovery's dedup key is the error's, so it resolves the incident the error opened", async () => {
    const error = JSON.parse((await deliver("error"))!.body);
    const recovery = JSON.parse((await deliver("recovered"))!.body);
    expect(recovery.dedup_key).toBe(error.dedup_key);
    expect([error.event_action, recovery.event_action]).toEqual(["trigger", "resolve"]);
    const test = JSON.parse((await deliver("test"))!.body);
    expect(test.dedup_key).not.toBe(error.dedup_key);
  });
});
