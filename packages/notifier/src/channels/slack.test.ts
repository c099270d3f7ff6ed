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
    { kind: "slack", config: { webhookUrl: `${server.url}/services/T1/B1/x` } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 200 });
  return server.requests.at(-1);
}

describe("slack channel", () => {
  it("an error posts a Block Kit message with a red header, every fact and a button to the monitor", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/services/T1/B1/x", [["content-type", "application/json"]], {
        text: "🔴 API health is down",
        blocks: [
          {
            type: "header",
            text: {
              type: "plain_text",
              text: "🔴 API health is down",
              emoji: true,
            },
          },
          {
            type: "section",
            fields: [
              {
                type: "mrkdwn",
                text: "*Status*\nerror",
              },
              {
                type: "mrkdwn",
                text: "*URL*\nhttps://api.example.com/health",
              },
              {
                type: "mrkdwn",
                text: "*Time*\n2024-05-01T12:00:00.000Z",
              },
              {
                type: "mrkdwn",
                text: "*Status code*\n503",
              },
              {
                type: "mrkdwn",
                text: "*Latency*\n1532 ms",
              },
              {
                type: "mrkdwn",
                text: "*Error*\nexpected status 200, got 503",
              },
            ],
          },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                text: {
                  type: "plain_text",
                  text: "Open in Vigil",
                },
                url: "https://vigil.example.com/monitors/42",
              },
            ],
          },
        ],
      }),
    );
  });

  it("degraded posts an orange header with the slow latency", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/services/T1/B1/x", [["content-type", "application/json"]], {
        text: "🟠 API health is degraded",
        blocks: [
          {
            type: "header",
            text: {
              type: "plain_text",
              text: "🟠 API health is degraded",
              emoji: true,
            },
          },
          {
            type: "section",
            fields: [
              {
                type: "mrkdwn",
                text: "*Status*\ndegraded",
              },
              {
                type: "mrkdwn",
                text: "*URL*\nhttps://api.example.com/health",
              },
              {
                type: "mrkdwn",
                text: "*Time*\n2024-05-01T12:00:00.000Z",
              },
              {
                type: "mrkdwn",
                text: "*Status code*\n200",
              },
              {
                type: "mrkdwn",
                text: "*Latency*\n2450 ms",
              },
            ],
          },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                text: {
                  type: "plain_text",
                  text: "Open in Vigil",
                },
                url: "https://vigil.example.com/monitors/42",
              },
            ],
          },
        ],
      }),
    );
  });

  it("a recovery posts a green header with the status code and latency", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/services/T1/B1/x", [["content-type", "application/json"]], {
        text: "🟢 API health has recovered",
        blocks: [
          {
            type: "header",
            text: {
              type: "plain_text",
              text: "🟢 API health has recovered",
              emoji: true,
            },
          },
          {
            type: "section",
            fields: [
              {
                type: "mrkdwn",
                text: "*Status*\nrecovered",
              },
              {
                type: "mrkdwn",
                text: "*URL*\nhttps://api.example.com/health",
              },
              {
                type: "mrkdwn",
                text: "*Time*\n2024-05-01T12:00:00.000Z",
              },
              {
                type: "mrkdwn",
                text: "*Status code*\n200",
              },
              {
                type: "mrkdwn",
                text: "*Latency*\n87 ms",
              },
            ],
          },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                text: {
                  type: "plain_text",
                  text: "Open in Vigil",
                },
                url: "https://vigil.example.com/monitors/42",
              },
            ],
          },
        ],
      }),
    );
  });

  it("a test posts a bell header with the monitor's name, URL and time", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/services/T1/B1/x", [["content-type", "application/json"]], {
        text: "🔔 Test notification for API health",
        blocks: [
          {
            type: "header",
            text: {
              type: "plain_text",
              text: "🔔 Test notification for API health",
              emoji: true,
            },
          },
          {
            type: "section",
            fields: [
              {
                type: "mrkdwn",
                text: "*Status*\ntest",
              },
              {
                type: "mrkdwn",
                text: "*URL*\nhttps://api.example.com/health",
              },
              {
                type: "mrkdwn",
                text: "*Time*\n2024-05-01T12:00:00.000Z",
              },
            ],
          },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                text: {
                  type: "plain_text",
                  text: "Open in Vigil",
                },
                url: "https://vigil.example.com/monitors/42",
              },
            ],
          },
        ],
      }),
    );
  });
});

describe("slack escaping", () => {
  it("a name with <, > and & stays literal in the header and is escaped where Slack reads mrkdwn", async () => {
    const event = { ...TEST_EVENTS.test, monitor: { ...TEST_EVENTS.test.monitor, name: "<!channel> & friends" } };
    await notify({ kind: "slack", config: { webhookUrl: `${server.url}/s` } }, event, testEnv(server.url), { now: TEST_NOW });
    const message = JSON.parse(server.requests.at(-1)!.body);
    expect(message.text).toBe("🔔 Test notification for &lt;!channel&gt; &amp; friends");
    expect(message.blocks[0].text.text).toBe("🔔 Test notification for <!channel> & friends");
  });
});
