import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 204, body: "" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "discord", config: { webhookUrl: `${server.url}/api/webhooks/1/tok` } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 204 });
  return server.requests.at(-1);
}

describe("discord channel", () => {
  it("an error posts a red embed with every fact, linked to the monitor, mentions disabled", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/api/webhooks/1/tok", [["content-type", "application/json"]], {
        embeds: [
          {
            title: "API health is down",
            url: "https://vigil.example.com/monitors/42",
            color: 15158332,
            fields: [
              {
                name: "Status",
                value: "error",
                inline: true,
              },
              {
                name: "URL",
                value: "https://api.example.com/health",
                inline: false,
              },
              {
                name: "Time",
                value: "2024-05-01T12:00:00.000Z",
                inline: true,
              },
              {
                name: "Status code",
                value: "503",
                inline: true,
              },
              {
                name: "Latency",
                value: "1532 ms",
                inline: true,
              },
              {
                name: "Error",
                value: "expected status 200, got 503",
                inline: false,
              },
            ],
            timestamp: "2024-05-01T12:00:00.000Z",
            footer: {
              text: "Vigil",
            },
          },
        ],
        allowed_mentions: {
          parse: [],
        },
      }),
    );
  });

  it("degraded posts an orange embed with the slow latency", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/api/webhooks/1/tok", [["content-type", "application/json"]], {
        embeds: [
          {
            title: "API health is degraded",
            url: "https://vigil.example.com/monitors/42",
            color: 15965202,
            fields: [
              {
                name: "Status",
                value: "degraded",
                inline: true,
              },
              {
                name: "URL",
                value: "https://api.example.com/health",
                inline: false,
              },
              {
                name: "Time",
                value: "2024-05-01T12:00:00.000Z",
                inline: true,
              },
              {
                name: "Status code",
                value: "200",
                inline: true,
              },
              {
                name: "Latency",
                value: "2450 ms",
                inline: true,
              },
            ],
            timestamp: "2024-05-01T12:00:00.000Z",
            footer: {
              text: "Vigil",
            },
          },
        ],
        allowed_mentions: {
          parse: [],
        },
      }),
    );
  });

  it("a recovery posts a green embed with the status code and latency", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/api/webhooks/1/tok", [["content-type", "application/json"]], {
        embeds: [
          {
            title: "API health has recovered",
            url: "https://vigil.example.com/monitors/42",
            color: 3066993,
            fields: [
              {
                name: "Status",
                value: "recovered",
                inline: true,
              },
              {
                name: "URL",
                value: "https://api.example.com/health",
                inline: false,
              },
              {
                name: "Time",
                value: "2024-05-01T12:00:00.000Z",
                inline: true,
              },
              {
                name: "Status code",
                value: "200",
                inline: true,
              },
              {
                name: "Latency",
                value: "87 ms",
                inline: true,
              },
            ],
            timestamp: "2024-05-01T12:00:00.000Z",
            footer: {
              text: "Vigil",
            },
          },
        ],
        allowed_mentions: {
          parse: [],
        },
      }),
    );
  });

  it("a test posts a blue embed with the monitor's name, URL and time", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/api/webhooks/1/tok", [["content-type", "application/json"]], {
        embeds: [
          {
            title: "Test notification for API health",
            url: "https://vigil.example.com/monitors/42",
            color: 3447003,
            fields: [
              {
                name: "Status",
                value: "test",
                inline: true,
              },
              {
                name: "URL",
                value: "https://api.example.com/health",
                inline: false,
              },
              {
                name: "Time",
                value: "2024-05-01T12:00:00.000Z",
                inline: true,
              },
            ],
            timestamp: "2024-05-01T12:00:00.000Z",
            footer: {
              text: "Vigil",
            },
          },
        ],
        allowed_mentions: {
          parse: [],
        },
      }),
    );
  });
});
