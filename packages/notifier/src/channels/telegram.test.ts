import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 200, body: '{"ok":true}' }, () => ({ kind: "telegram", config: { chatId: "-1001234567890" } }));

const sendMessage = (text: string) =>
  expectedRequest("/bot123456:TEST-TOKEN/sendMessage", [["content-type", "application/json"]], {
    chat_id: "-1001234567890",
    text,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  });

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error sends an HTML message to the chat through the bot token's sendMessage",
    expected: sendMessage(
      '🔴 <b>API health is down</b>\nStatus: error\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 503\nLatency: 1532 ms\nError: expected status 200, got 503\n<a href="https://vigil.example.com/monitors/42">Open in Vigil</a>',
    ),
  },
  {
    event: "degraded",
    name: "degraded sends the slow latency",
    expected: sendMessage(
      '🟠 <b>API health is degraded</b>\nStatus: degraded\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 2450 ms\n<a href="https://vigil.example.com/monitors/42">Open in Vigil</a>',
    ),
  },
  {
    event: "recovered",
    name: "a recovery sends the status code and latency",
    expected: sendMessage(
      '🟢 <b>API health has recovered</b>\nStatus: recovered\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\nStatus code: 200\nLatency: 87 ms\n<a href="https://vigil.example.com/monitors/42">Open in Vigil</a>',
    ),
  },
  {
    event: "test",
    name: "a test sends the monitor's name, URL and time",
    expected: sendMessage(
      '🔔 <b>Test notification for API health</b>\nStatus: test\nURL: https://api.example.com/health\nTime: 2024-05-01T12:00:00.000Z\n<a href="https://vigil.example.com/monitors/42">Open in Vigil</a>',
    ),
  },
];

describe("telegram channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("telegram setup and escaping", () => {
  it("a name and error with HTML characters are escaped, so Telegram accepts the message", async () => {
    const event = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, name: "R&D <api>" }, errorMessage: "got <html>" };
    await notify({ kind: "telegram", config: { chatId: "@vigil_alerts" } }, event, testEnv(server.url), { now: TEST_NOW });
    const message = JSON.parse(server.requests.at(-1)!.body);
    expect(message.chat_id).toBe("@vigil_alerts");
    expect(message.text).toContain("🔴 <b>R&amp;D &lt;api&gt; is down</b>\n");
    expect(message.text).toContain("Error: got &lt;html&gt;\n");
  });

  it("without TELEGRAM_BOT_TOKEN nothing is sent and the failure names the variable", async () => {
    const before = server.requests.length;
    const env = testEnv(server.url);
    delete env.TELEGRAM_BOT_TOKEN;
    await expect(notify({ kind: "telegram", config: { chatId: "-1001234567890" } }, TEST_EVENTS.error, env)).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "TELEGRAM_BOT_TOKEN is not set; the telegram channel needs it",
    });
    expect(server.requests.length).toBe(before);
  });
});
