import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 200, body: "ok" }, (url) => ({ kind: "slack", config: { webhookUrl: `${url}/services/T1/B1/x` } }));

/** The Block Kit message every event posts: its header, then the facts after Status, URL and Time, then the button. */
const blockKit = (header: string, status: string, facts: string[]) =>
  expectedRequest("/services/T1/B1/x", [["content-type", "application/json"]], {
    text: header,
    blocks: [
      { type: "header", text: { type: "plain_text", text: header, emoji: true } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*Status*\n${status}` },
          { type: "mrkdwn", text: "*URL*\nhttps://api.example.com/health" },
          { type: "mrkdwn", text: "*Time*\n2024-05-01T12:00:00.000Z" },
          ...facts.map((text) => ({ type: "mrkdwn", text })),
        ],
      },
      {
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open in Vigil" }, url: "https://vigil.example.com/monitors/42" }],
      },
    ],
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error posts a Block Kit message with a red header, every fact and a button to the monitor",
    expected: blockKit("🔴 API health is down", "error", [
      "*Status code*\n503",
      "*Latency*\n1532 ms",
      "*Error*\nexpected status 200, got 503",
    ]),
  },
  {
    event: "degraded",
    name: "degraded posts an orange header with the slow latency",
    expected: blockKit("🟠 API health is degraded", "degraded", ["*Status code*\n200", "*Latency*\n2450 ms"]),
  },
  {
    event: "recovered",
    name: "a recovery posts a green header with the status code and latency",
    expected: blockKit("🟢 API health has recovered", "recovered", ["*Status code*\n200", "*Latency*\n87 ms"]),
  },
  {
    event: "test",
    name: "a test posts a bell header with the monitor's name, URL and time",
    expected: blockKit("🔔 Test notification for API health", "test", []),
  },
];

describe("slack channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
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
