import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, TEST_TEXT, testEnv } from "../testing";

const server = channelServer({ status: 200, body: "{}" }, () => ({ kind: "ntfy", config: { topic: "vigil-alerts", token: "tk_secret" } }));

const publish = (title: string, priority: string, tags: string, body: string) =>
  expectedRequest(
    "/vigil-alerts",
    [
      ["content-type", "text/plain; charset=utf-8"],
      ["title", title],
      ["priority", priority],
      ["tags", tags],
      ["click", "https://vigil.example.com/monitors/42"],
      ["authorization", "Bearer tk_secret"],
    ],
    body,
  );

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error publishes to the topic with urgent priority, a siren tag, a click link and the bearer token",
    expected: publish("API health is down", "5", "rotating_light", TEST_TEXT.error),
  },
  {
    event: "degraded",
    name: "degraded publishes with high priority and a warning tag",
    expected: publish("API health is degraded", "4", "warning", TEST_TEXT.degraded),
  },
  {
    event: "recovered",
    name: "a recovery publishes with default priority and a check-mark tag",
    expected: publish("API health has recovered", "3", "white_check_mark", TEST_TEXT.recovered),
  },
  {
    event: "test",
    name: "a test publishes with default priority and a bell tag",
    expected: publish("Test notification for API health", "3", "bell", TEST_TEXT.test),
  },
];

describe("ntfy channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("ntfy server and title", () => {
  it("a custom server (trailing slash and all) without a token gets no authorization header", async () => {
    await notify(
      { kind: "ntfy", config: { topic: "ops_1", server: `${server.url}/ntfy/` } },
      TEST_EVENTS.test,
      testEnv("https://ntfy.invalid"),
      {
        now: TEST_NOW,
      },
    );
    const { path, headers } = server.requests.at(-1)!;
    expect(path).toBe("/ntfy/ops_1");
    expect(headers.map(([name]) => name)).not.toContain("authorization");
  });

  it("a non-ASCII title travels as an RFC 2047 encoded-word that ntfy decodes", async () => {
    const event = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "Zürich API 🚀" } };
    await notify({ kind: "ntfy", config: { topic: "vigil-alerts" } }, event, testEnv(server.url), { now: TEST_NOW });
    const title = new Map(server.requests.at(-1)!.headers).get("title")!;
    expect(title).toBe("=?UTF-8?B?WsO8cmljaCBBUEkg8J+agCBpcyBkb3du?=");
    expect(Buffer.from(title.slice(10, -2), "base64").toString("utf8")).toBe("Zürich API 🚀 is down");
  });
});
