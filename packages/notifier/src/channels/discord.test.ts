import { describe, expect, it } from "vitest";
import { byName, type ChannelCase, channelServer, expectedRequest } from "../testing";

const { deliver } = channelServer({ status: 204, body: "" }, (url) => ({
  kind: "discord",
  config: { webhookUrl: `${url}/api/webhooks/1/tok` },
}));

type Field = { name: string; value: string; inline: boolean };

/** The embed every event posts: its title, colour and the facts after Status, URL and Time. */
const embed = (title: string, color: number, status: string, facts: Field[]) =>
  expectedRequest("/api/webhooks/1/tok", [["content-type", "application/json"]], {
    embeds: [
      {
        title,
        url: "https://vigil.example.com/monitors/42",
        color,
        fields: [
          { name: "Status", value: status, inline: true },
          { name: "URL", value: "https://api.example.com/health", inline: false },
          { name: "Time", value: "2024-05-01T12:00:00.000Z", inline: true },
          ...facts,
        ],
        timestamp: "2024-05-01T12:00:00.000Z",
        footer: { text: "Vigil" },
      },
    ],
    allowed_mentions: { parse: [] },
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error posts a red embed with every fact, linked to the monitor, mentions disabled",
    expected: embed("API health is down", 15158332, "error", [
      { name: "Status code", value: "503", inline: true },
      { name: "Latency", value: "1532 ms", inline: true },
      { name: "Error", value: "expected status 200, got 503", inline: false },
    ]),
  },
  {
    event: "degraded",
    name: "degraded posts an orange embed with the slow latency",
    expected: embed("API health is degraded", 15965202, "degraded", [
      { name: "Status code", value: "200", inline: true },
      { name: "Latency", value: "2450 ms", inline: true },
    ]),
  },
  {
    event: "recovered",
    name: "a recovery posts a green embed with the status code and latency",
    expected: embed("API health has recovered", 3066993, "recovered", [
      { name: "Status code", value: "200", inline: true },
      { name: "Latency", value: "87 ms", inline: true },
    ]),
  },
  {
    event: "test",
    name: "a test posts a blue embed with the monitor's name, URL and time",
    expected: embed("Test notification for API health", 3447003, "test", []),
  },
];

describe("discord channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await deliver(event)).toEqual(expected);
  });
});
