import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 200, body: "{}" }, (url) => ({
  kind: "google-chat",
  config: { webhookUrl: `${url}/v1/spaces/AAA/messages?key=k&token=t` },
}));

const fact = (topLabel: string, text: string) => ({ decoratedText: { topLabel, text, wrapText: true } });

/** The message every event posts: a text line, then a card with the facts after Status, URL and Time and a button. */
const card = (text: string, title: string, status: string, facts: ReturnType<typeof fact>[]) =>
  expectedRequest("/v1/spaces/AAA/messages?key=k&token=t", [["content-type", "application/json; charset=UTF-8"]], {
    text,
    cardsV2: [
      {
        cardId: "vigil-monitor-42",
        card: {
          header: { title, subtitle: "Vigil" },
          sections: [
            {
              widgets: [
                fact("Status", status),
                fact("URL", "https://api.example.com/health"),
                fact("Time", "2024-05-01T12:00:00.000Z"),
                ...facts,
                {
                  buttonList: {
                    buttons: [{ text: "Open in Vigil", onClick: { openLink: { url: "https://vigil.example.com/monitors/42" } } }],
                  },
                },
              ],
            },
          ],
        },
      },
    ],
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error posts a text line and a card with every fact and a button to the monitor",
    expected: card("🔴 API health is down", "API health is down", "error", [
      fact("Status code", "503"),
      fact("Latency", "1532 ms"),
      fact("Error", "expected status 200, got 503"),
    ]),
  },
  {
    event: "degraded",
    name: "degraded posts a card with the slow latency",
    expected: card("🟠 API health is degraded", "API health is degraded", "degraded", [
      fact("Status code", "200"),
      fact("Latency", "2450 ms"),
    ]),
  },
  {
    event: "recovered",
    name: "a recovery posts a card with the status code and latency",
    expected: card("🟢 API health has recovered", "API health has recovered", "recovered", [
      fact("Status code", "200"),
      fact("Latency", "87 ms"),
    ]),
  },
  {
    event: "test",
    name: "a test posts a card with the monitor's name, URL and time",
    expected: card("🔔 Test notification for API health", "Test notification for API health", "test", []),
  },
];

describe("google-chat channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("google-chat escaping", () => {
  it("an error text with markup is escaped inside the card's decorated text", async () => {
    const event = { ...TEST_EVENTS.error, errorMessage: `<font color="red">x</font> & y` };
    await notify({ kind: "google-chat", config: { webhookUrl: `${server.url}/g` } }, event, testEnv(server.url), { now: TEST_NOW });
    const widgets = JSON.parse(server.requests.at(-1)!.body).cardsV2[0].card.sections[0].widgets;
    expect(widgets[5].decoratedText).toEqual({
      topLabel: "Error",
      text: "&lt;font color=&quot;red&quot;&gt;x&lt;/font&gt; &amp; y",
      wrapText: true,
    });
  });
});
