import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 202, body: '{"result":"Request will be processed"}' }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify({ kind: "opsgenie", config: { apiKey: "og-key" } }, TEST_EVENTS[type], testEnv(server.url), {
    now: TEST_NOW,
  });
  expect(result).toEqual({ ok: true, status: 202 });
  return server.requests.at(-1);
}

describe("opsgenie channel", () => {
  it("an error creates a P1 alert with the monitor's alias", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest(
        "/v2/alerts",
        [
          ["authorization", "GenieKey og-key"],
          ["content-type", "application/json"],
        ],
        {
          message: "API health is down",
          alias: "vigil-monitor-42",
          description:
            "API health is down\nStatus: error\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 503\nLatency: 1532 ms\nError: expected status 200, got 503\nOpen in Vigil: https://vigil.example.com/monitors/42",
          details: {
            Status: "error",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
            "Status code": "503",
            Latency: "1532 ms",
            Error: "expected status 200, got 503",
            Dashboard: "https://vigil.example.com/monitors/42",
          },
          entity: "https://api.example.com/health",
          source: "Vigil",
          tags: ["vigil", "error"],
          priority: "P1",
        },
      ),
    );
  });

  it("degraded creates a P3 alert under the same alias", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest(
        "/v2/alerts",
        [
          ["authorization", "GenieKey og-key"],
          ["content-type", "application/json"],
        ],
        {
          message: "API health is degraded",
          alias: "vigil-monitor-42",
          description:
            "API health is degraded\nStatus: degraded\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 2450 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
          details: {
            Status: "degraded",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
            "Status code": "200",
            Latency: "2450 ms",
            Dashboard: "https://vigil.example.com/monitors/42",
          },
          entity: "https://api.example.com/health",
          source: "Vigil",
          tags: ["vigil", "degraded"],
          priority: "P3",
        },
      ),
    );
  });

  it("a recovery closes the alert by its alias", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest(
        "/v2/alerts/vigil-monitor-42/close?identifierType=alias",
        [
          ["authorization", "GenieKey og-key"],
          ["content-type", "application/json"],
        ],
        {
          source: "Vigil",
          note: "API health has recovered\nStatus: recovered\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 87 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
        },
      ),
    );
  });

  it("a test creates a P5 alert under a separate test alias", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest(
        "/v2/alerts",
        [
          ["authorization", "GenieKey og-key"],
          ["content-type", "application/json"],
        ],
        {
          message: "Test notification for API health",
          alias: "vigil-monitor-42-test",
          description:
            "Test notification for API health\nStatus: test\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nOpen in Vigil: https://vigil.example.com/monitors/42",
          details: {
            Status: "test",
            URL: "https://api.example.com/health",
            Time: "2024-05-01T12:00:00.000Z",
            Dashboard: "https://vigil.example.com/monitors/42",
          },
          entity: "https://api.example.com/health",
          source: "Vigil",
          tags: ["vigil", "test"],
          priority: "P5",
        },
      ),
    );
  });
});

describe("opsgenie alert lifecycle and region", () => {
  it("the recovery closes the alias the error created", async () => {
    const error = JSON.parse((await deliver("error"))!.body);
    const recovery = (await deliver("recovered"))!;
    expect(recovery.path).toBe(`/v2/alerts/${error.alias}/close?identifierType=alias`);
  });

  it("an eu account is sent to the EU API", async () => {
    await notify({ kind: "opsgenie", config: { apiKey: "og-key", region: "eu" } }, TEST_EVENTS.error, testEnv(server.url), {
      now: TEST_NOW,
    });
    expect(server.requests.at(-1)!.path).toBe("/eu/v2/alerts");
  });
});
