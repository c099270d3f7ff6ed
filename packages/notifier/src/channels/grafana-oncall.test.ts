import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 200, body: "ok" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "grafana-oncall", config: { webhookUrl: `${server.url}/integrations/v1/formatted_webhook/abc/` } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 200 });
  return server.requests.at(-1);
}

describe("grafana-oncall channel", () => {
  it("an error opens an alerting alert grouped under the monitor's uid", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/integrations/v1/formatted_webhook/abc/", [["content-type", "application/json"]], {
        alert_uid: "vigil-monitor-42",
        title: "API health is down",
        state: "alerting",
        link_to_upstream_details: "https://vigil.example.com/monitors/42",
        message:
          "API health is down\nStatus: error\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 503\nLatency: 1532 ms\nError: expected status 200, got 503\nOpen in Vigil: https://vigil.example.com/monitors/42",
      }),
    );
  });

  it("degraded alerts under the same uid as an error", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/integrations/v1/formatted_webhook/abc/", [["content-type", "application/json"]], {
        alert_uid: "vigil-monitor-42",
        title: "API health is degraded",
        state: "alerting",
        link_to_upstream_details: "https://vigil.example.com/monitors/42",
        message:
          "API health is degraded\nStatus: degraded\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 2450 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
      }),
    );
  });

  it("a recovery sends state ok under the same uid, which resolves the alert group", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/integrations/v1/formatted_webhook/abc/", [["content-type", "application/json"]], {
        alert_uid: "vigil-monitor-42",
        title: "API health has recovered",
        state: "ok",
        link_to_upstream_details: "https://vigil.example.com/monitors/42",
        message:
          "API health has recovered\nStatus: recovered\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 87 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
      }),
    );
  });

  it("a test alerts under a separate test uid so it never resolves a real alert", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/integrations/v1/formatted_webhook/abc/", [["content-type", "application/json"]], {
        alert_uid: "vigil-monitor-42-test",
        title: "Test notification for API health",
        state: "alerting",
        link_to_upstream_details: "https://vigil.example.com/monitors/42",
        message:
          "Test notification for API health\nStatus: test\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nOpen in Vigil: https://vigil.example.com/monitors/42",
      }),
    );
  });
});

describe("grafana-oncall titles", () => {
  it("a monitor without a name is announced by its URL, and a name with line breaks stays on one line", async () => {
    const config = { webhookUrl: `${server.url}/o` };
    const unnamed = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "" } };
    await notify({ kind: "grafana-oncall", config }, unnamed, testEnv(server.url), { now: TEST_NOW });
    expect(JSON.parse(server.requests.at(-1)!.body).title).toBe("https://api.example.com/health is down");
    const multiline = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "API\r\nhealth\t" } };
    await notify({ kind: "grafana-oncall", config }, multiline, testEnv(server.url), { now: TEST_NOW });
    expect(JSON.parse(server.requests.at(-1)!.body).title).toBe("API health is down");
  });
});
