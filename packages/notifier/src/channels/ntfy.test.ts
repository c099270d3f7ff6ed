import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 200, body: "{}" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "ntfy", config: { topic: "vigil-alerts", token: "tk_secret" } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 200 });
  return server.requests.at(-1);
}

describe("ntfy channel", () => {
  it("an error publishes to the topic with urgent priority, a siren tag, a click link and the bearer token", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest(
        "/vigil-alerts",
        [
          ["content-type", "text/plain; charset=utf-8"],
          ["title", "API health is down"],
          ["priority", "5"],
          ["tags", "rotating_light"],
          ["click", "https://vigil.example.com/monitors/42"],
          ["authorization", "Bearer tk_secret"],
        ],
        "API health is down\nStatus: error\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 503\nLatency: 1532 ms\nError: expected status 200, got 503\nOpen in Vigil: https://vigil.example.com/monitors/42",
      ),
    );
  });

  it("degraded publishes with high priority and a warning tag", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest(
        "/vigil-alerts",
        [
          ["content-type", "text/plain; charset=utf-8"],
          ["title", "API health is degraded"],
          ["priority", "4"],
          ["tags", "warning"],
          ["click", "https://vigil.example.com/monitors/42"],
          ["authorization", "Bearer tk_secret"],
        ],
        "API health is degraded\nStatus: degraded\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 2450 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
      ),
    );
  });

  it("a recovery publishes with default priority and a check-mark tag", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest(
        "/vigil-alerts",
        [
          ["content-type", "text/plain; charset=utf-8"],
          ["title", "API health has recovered"],
          ["priority", "3"],
          ["tags", "white_check_mark"],
          ["click", "https://vigil.example.com/monitors/42"],
          ["authorization", "Bearer tk_secret"],
        ],
        "API health has recovered\nStatus: recovered\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 87 ms\nOpen in Vigil: https://vigil.example.com/monitors/42",
      ),
    );
  });

  it("a test publishes with default priority and a bell tag", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest(
        "/vigil-alerts",
        [
          ["content-type", "text/plain; charset=utf-8"],
          ["title", "Test notification for API health"],
          ["priority", "3"],
          ["tags", "bell"],
          ["click", "https://vigil.example.com/monitors/42"],
          ["authorization", "Bearer tk_secret"],
        ],
        "Test notification for API health\nStatus: test\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nOpen in Vigil: https://vigil.example.com/monitors/42",
      ),
    );
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
