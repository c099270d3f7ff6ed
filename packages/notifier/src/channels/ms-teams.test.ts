import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 202, body: "" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "ms-teams", config: { webhookUrl: `${server.url}/webhookb2/abc` } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 202 });
  return server.requests.at(-1);
}

describe("ms-teams channel", () => {
  it("an error posts an Adaptive Card with a red title, a fact set and a button to the monitor", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/webhookb2/abc", [["content-type", "application/json"]], {
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            contentUrl: null,
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                {
                  type: "TextBlock",
                  text: "API health is down",
                  weight: "Bolder",
                  size: "Medium",
                  color: "Attention",
                  wrap: true,
                },
                {
                  type: "FactSet",
                  facts: [
                    {
                      title: "Status",
                      value: "error",
                    },
                    {
                      title: "URL",
                      value: "https://api.example.com/health",
                    },
                    {
                      title: "Time",
                      value: "2024-05-01T12:00:00.000Z",
                    },
                    {
                      title: "Status code",
                      value: "503",
                    },
                    {
                      title: "Latency",
                      value: "1532 ms",
                    },
                    {
                      title: "Error",
                      value: "expected status 200, got 503",
                    },
                  ],
                },
              ],
              actions: [
                {
                  type: "Action.OpenUrl",
                  title: "Open in Vigil",
                  url: "https://vigil.example.com/monitors/42",
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("degraded posts an Adaptive Card with a warning-coloured title", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/webhookb2/abc", [["content-type", "application/json"]], {
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            contentUrl: null,
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                {
                  type: "TextBlock",
                  text: "API health is degraded",
                  weight: "Bolder",
                  size: "Medium",
                  color: "Warning",
                  wrap: true,
                },
                {
                  type: "FactSet",
                  facts: [
                    {
                      title: "Status",
                      value: "degraded",
                    },
                    {
                      title: "URL",
                      value: "https://api.example.com/health",
                    },
                    {
                      title: "Time",
                      value: "2024-05-01T12:00:00.000Z",
                    },
                    {
                      title: "Status code",
                      value: "200",
                    },
                    {
                      title: "Latency",
                      value: "2450 ms",
                    },
                  ],
                },
              ],
              actions: [
                {
                  type: "Action.OpenUrl",
                  title: "Open in Vigil",
                  url: "https://vigil.example.com/monitors/42",
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("a recovery posts an Adaptive Card with a green title", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/webhookb2/abc", [["content-type", "application/json"]], {
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            contentUrl: null,
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                {
                  type: "TextBlock",
                  text: "API health has recovered",
                  weight: "Bolder",
                  size: "Medium",
                  color: "Good",
                  wrap: true,
                },
                {
                  type: "FactSet",
                  facts: [
                    {
                      title: "Status",
                      value: "recovered",
                    },
                    {
                      title: "URL",
                      value: "https://api.example.com/health",
                    },
                    {
                      title: "Time",
                      value: "2024-05-01T12:00:00.000Z",
                    },
                    {
                      title: "Status code",
                      value: "200",
                    },
                    {
                      title: "Latency",
                      value: "87 ms",
                    },
                  ],
                },
              ],
              actions: [
                {
                  type: "Action.OpenUrl",
                  title: "Open in Vigil",
                  url: "https://vigil.example.com/monitors/42",
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("a test posts an Adaptive Card with an accent title", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/webhookb2/abc", [["content-type", "application/json"]], {
        type: "message",
        attachments: [
          {
            contentType: "application/vnd.microsoft.card.adaptive",
            contentUrl: null,
            content: {
              $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
              type: "AdaptiveCard",
              version: "1.4",
              body: [
                {
                  type: "TextBlock",
                  text: "Test notification for API health",
                  weight: "Bolder",
                  size: "Medium",
                  color: "Accent",
                  wrap: true,
                },
                {
                  type: "FactSet",
                  facts: [
                    {
                      title: "Status",
                      value: "test",
                    },
                    {
                      title: "URL",
                      value: "https://api.example.com/health",
                    },
                    {
                      title: "Time",
                      value: "2024-05-01T12:00:00.000Z",
                    },
                  ],
                },
              ],
              actions: [
                {
                  type: "Action.OpenUrl",
                  title: "Open in Vigil",
                  url: "https://vigil.example.com/monitors/42",
                },
              ],
            },
          },
        ],
      }),
    );
  });
});
