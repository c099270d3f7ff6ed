import { describe, expect, it } from "vitest";
import { redactConfig, validateChannelConfig } from "./config";

const E164 = "must be an international number with a leading + such as +14155550123";

describe("validateChannelConfig", () => {
  it.each([
    ["slack", {}, "webhookUrl", "is required"],
    [
      "slack",
      { webhookUrl: "ftp://hooks.example.com/x" },
      "webhookUrl",
      "must be an http:// or https:// URL such as https://hooks.slack.com/services/T000/B000/XXXX",
    ],
    [
      "discord",
      { webhookUrl: "javascript:alert(1)" },
      "webhookUrl",
      "must be an http:// or https:// URL such as https://discord.com/api/webhooks/123/abc",
    ],
    [
      "grafana-oncall",
      { webhookUrl: "oncall" },
      "webhookUrl",
      "must be an http:// or https:// URL such as https://oncall.example.com/integrations/v1/formatted_webhook/abc/",
    ],
    [
      "google-chat",
      { webhookUrl: 42 },
      "webhookUrl",
      "must be an http:// or https:// URL such as https://chat.googleapis.com/v1/spaces/AAAA/messages?key=...&token=...",
    ],
    ["ms-teams", {}, "webhookUrl", "is required"],
    ["email", { email: "ops-at-example.com" }, "email", "must be an email address such as ops@example.com"],
    ["email", {}, "email", "is required"],
    ["sms", { phone: "4155550123" }, "phone", E164],
    ["sms", { phone: "+1 415 555 0123" }, "phone", E164],
    ["whatsapp", { phone: "+0123456789" }, "phone", E164],
    ["whatsapp", {}, "phone", "is required"],
    [
      "telegram",
      { chatId: "my chat" },
      "chatId",
      "must be a numeric chat id such as -1001234567890 or a channel username such as @vigil_alerts",
    ],
    ["telegram", { chatId: true }, "chatId", "must be a numeric chat id or a channel username"],
    ["webhook", { url: "not a url" }, "url", "must be an http:// or https:// URL such as https://example.com/hooks/vigil"],
    ["webhook", { url: "https://example.com", headers: { "Bad Header": "v" } }, "headers.Bad Header", "must be a valid HTTP header name"],
    [
      "webhook",
      { url: "https://example.com", headers: { "X-Token": "a\r\nInjected: yes" } },
      "headers.X-Token",
      "must be printable ASCII, without line breaks",
    ],
    [
      "webhook",
      { url: "https://example.com", headers: { "X-Team": "🚀" } },
      "headers.X-Team",
      "must be printable ASCII, without line breaks",
    ],
    ["webhook", { url: "https://example.com", headers: ["Authorization: x"] }, "headers", "must be an object of header names to values"],
    [
      "webhook",
      { url: "https://example.com", headers: { "Content-Length": "0" } },
      "headers.Content-Length",
      "is set by Vigil and cannot be overridden",
    ],
    ["webhook", { url: "https://example.com", secret: "short" }, "secret", "must be at least 16 characters"],
    ["opsgenie", { apiKey: "   " }, "apiKey", "must not be empty"],
    ["opsgenie", { apiKey: "key with spaces" }, "apiKey", "must be printable ASCII without spaces"],
    ["opsgenie", { apiKey: "k", region: "asia" }, "region", "must be us or eu"],
    ["pagerduty", { routingKey: "short" }, "routingKey", "must be the 32-character integration key of an Events API v2 integration"],
    ["pagerduty", {}, "routingKey", "is required"],
    ["ntfy", { topic: "has space" }, "topic", "must be 1 to 64 letters, digits, - or _"],
    ["ntfy", { topic: "t".repeat(65) }, "topic", "must be 1 to 64 letters, digits, - or _"],
    ["ntfy", { topic: "ok", server: "ntfy.example.com" }, "server", "must be an http:// or https:// URL such as https://ntfy.example.com"],
    ["ntfy", { topic: "ok", token: "" }, "token", "must not be empty"],
  ])("%s refuses %j, naming %s", (kind, config, path, message) => {
    expect(validateChannelConfig(kind, config)).toEqual({ ok: false, issues: [{ path, message }] });
  });

  it("an unknown kind is refused on the kind, and a config that is not an object on the whole", () => {
    expect(validateChannelConfig("carrier-pigeon", {})).toEqual({
      ok: false,
      issues: [
        {
          path: "kind",
          message:
            "must be one of slack, email, discord, grafana-oncall, google-chat, sms, whatsapp, telegram, webhook, opsgenie, pagerduty, ntfy, ms-teams",
        },
      ],
    });
    expect(validateChannelConfig("slack", null)).toEqual({ ok: false, issues: [{ path: "", message: "must be an object" }] });
  });

  it("a valid config comes back with its defaults filled in", () => {
    expect(validateChannelConfig("opsgenie", { apiKey: "og-key" })).toEqual({ ok: true, config: { apiKey: "og-key", region: "us" } });
    expect(validateChannelConfig("webhook", { url: "https://example.com/h" })).toEqual({
      ok: true,
      config: { url: "https://example.com/h", headers: {} },
    });
    expect(validateChannelConfig("telegram", { chatId: -1001234567890 })).toEqual({ ok: true, config: { chatId: "-1001234567890" } });
    expect(validateChannelConfig("telegram", { chatId: "@vigil_alerts" })).toEqual({ ok: true, config: { chatId: "@vigil_alerts" } });
    expect(validateChannelConfig("sms", { phone: "+14155550123" })).toEqual({ ok: true, config: { phone: "+14155550123" } });
  });
});

describe("redactConfig", () => {
  it.each([
    ["slack", { webhookUrl: "https://hooks.slack.com/services/T/B/secret1" }, { webhookUrl: "***" }],
    ["discord", { webhookUrl: "https://discord.com/api/webhooks/1/secret1" }, { webhookUrl: "***" }],
    ["google-chat", { webhookUrl: "https://chat.googleapis.com/v1/spaces/A/messages?key=secret1" }, { webhookUrl: "***" }],
    ["grafana-oncall", { webhookUrl: "https://oncall.example.com/integrations/v1/formatted_webhook/secret1/" }, { webhookUrl: "***" }],
    ["ms-teams", { webhookUrl: "https://example.webhook.office.com/webhookb2/secret1" }, { webhookUrl: "***" }],
    [
      "webhook",
      { url: "https://example.com/h", headers: { Authorization: "Bearer secret1", "X-Team": "secret2" }, secret: "secret3-0123456789" },
      { url: "https://example.com/h", headers: { Authorization: "***", "X-Team": "***" }, secret: "***" },
    ],
    ["opsgenie", { apiKey: "secret1", region: "eu" }, { apiKey: "***", region: "eu" }],
    ["pagerduty", { routingKey: "secret1secret1secret1secret1secr" }, { routingKey: "***" }],
    [
      "ntfy",
      { topic: "alerts", server: "https://ntfy.example.com", token: "tk_secret1" },
      { topic: "alerts", server: "https://ntfy.example.com", token: "***" },
    ],
    ["ntfy", { topic: "alerts" }, { topic: "alerts" }],
    ["email", { email: "ops@example.com" }, { email: "ops@example.com" }],
    ["sms", { phone: "+14155550123" }, { phone: "+14155550123" }],
    ["whatsapp", { phone: "+14155550123" }, { phone: "+14155550123" }],
    ["telegram", { chatId: "-100123" }, { chatId: "-100123" }],
  ])("%s config %j is shown as %j", (kind, config, shown) => {
    expect(redactConfig(kind, config)).toEqual(shown);
  });

  it("a config of an unknown kind has every value hidden, since its secrets are unknown", () => {
    expect(redactConfig("carrier-pigeon", { leg: "left", key: "secret1", extra: { a: "b" } })).toEqual({
      leg: "***",
      key: "***",
      extra: { a: "***" },
    });
  });
});
