import { describe, expect, it } from "vitest";
import { byName, type ChannelCase, channelServer, expectedRequest } from "../testing";

const { deliver } = channelServer({ status: 202, body: "" }, (url) => ({
  kind: "ms-teams",
  config: { webhookUrl: `${url}/webhookb2/abc` },
}));

type Fact = { title: string; value: string };

/** The Adaptive Card every event posts: a coloured title, the facts after Status, URL and Time, and a button. */
const adaptiveCard = (text: string, color: string, status: string, facts: Fact[]) =>
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
            { type: "TextBlock", text, weight: "Bolder", size: "Medium", color, wrap: true },
            {
              type: "FactSet",
              facts: [
                { title: "Status", value: status },
                { title: "URL", value: "https://api.example.com/health" },
                { title: "Time", value: "2024-05-01T12:00:00.000Z" },
                ...facts,
              ],
            },
          ],
          actions: [{ type: "Action.OpenUrl", title: "Open in Vigil", url: "https://vigil.example.com/monitors/42" }],
        },
      },
    ],
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error posts an Adaptive Card with a red title, a fact set and a button to the monitor",
    expected: adaptiveCard("API health is down", "Attention", "error", [
      { title: "Status code", value: "503" },
      { title: "Latency", value: "1532 ms" },
      { title: "Error", value: "expected status 200, got 503" },
    ]),
  },
  {
    event: "degraded",
    name: "degraded posts an Adaptive Card with a warning-coloured title",
    expected: adaptiveCard("API health is degraded", "Warning", "degraded", [
      { title: "Status code", value: "200" },
      { title: "Latency", value: "2450 ms" },
    ]),
  },
  {
    event: "recovered",
    name: "a recovery posts an Adaptive Card with a green title",
    expected: adaptiveCard("API health has recovered", "Good", "recovered", [
      { title: "Status code", value: "200" },
      { title: "Latency", value: "87 ms" },
    ]),
  },
  {
    event: "test",
    name: "a test posts an Adaptive Card with an accent title",
    expected: adaptiveCard("Test notification for API health", "Accent", "test", []),
  },
];

describe("ms-teams channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await deliver(event)).toEqual(expected);
  });
});
