import { describe, expect, it } from "vitest";
import { NotifierEnv } from "./env";
import { NotificationEvent, toWebhookPayload } from "./event";
import { channels } from "./registry";
import { recoveryWebhookBody } from "./testing";

const recovered = NotificationEvent.parse({
  type: "recovered",
  monitor: { id: 3, name: "API", url: "https://api.example/health" },
  cronTimestamp: 1_700_000_000_000,
  statusCode: 200,
  latency: 12,
  errorMessage: "left over from the failing check",
});

/** What each kind of channel would send for `event`, as text: [kind, message]. */
function builtOnEveryChannel(event: NotificationEvent): [string, string][] {
  const env = NotifierEnv.parse({ EMAIL_FROM: "v@example.com", EMAIL_PROVIDER_API_KEY: "k", TELEGRAM_BOT_TOKEN: "t" });
  const configs: Record<string, unknown> = {
    slack: { webhookUrl: "https://hooks.example.com/services/T1/B1/abc" },
    webhook: { url: "https://example.com/hook" },
    email: { email: "ops@example.com" },
    telegram: { chatId: "42" },
  };
  return Object.entries(configs).map(([kind, config]) => {
    const channel = channels[kind as keyof typeof channels];
    return [kind, JSON.stringify(channel.build(channel.config.parse(config) as never, event, { env, now: 0 }))];
  });
}

describe("a recovery", () => {
  it("never carries an error message, whatever the evaluation passed on", () => {
    expect(recovered).not.toHaveProperty("errorMessage");
    expect(toWebhookPayload(recovered)).toEqual(
      recoveryWebhookBody({ id: 3, name: "API", url: "https://api.example/health" }, 1_700_000_000_000, 12),
    );
  });

  it("shows no error on any channel", () => {
    for (const [kind, built] of builtOnEveryChannel(recovered)) expect(built, kind).not.toContain("left over");
  });
});

describe("an alert for a monitor whose URL carries credentials", () => {
  const down = NotificationEvent.parse({
    type: "error",
    monitor: { id: 7, name: "", url: "https://ops:hunter2@api.example/health?api_key=k-123456&region=eu" },
    cronTimestamp: 1_700_000_000_000,
    errorMessage: "request to https://ops:hunter2@api.example/health?api_key=k-123456&region=eu failed while connecting",
  });

  it("names the URL with its password and key redacted in the webhook payload, keeping the spec's fields", () => {
    expect(toWebhookPayload(down)).toEqual({
      monitor: { id: 7, name: "", url: "https://***@api.example/health?api_key=***&region=eu" },
      cronTimestamp: 1_700_000_000_000,
      status: "error",
      errorMessage: "request to https://***@api.example/health?api_key=***&region=eu failed while connecting",
    });
  });

  it("shows neither on any channel (the URL stands in for the missing name)", () => {
    for (const [kind, built] of builtOnEveryChannel(down)) {
      expect(built, kind).toContain("api.example/health");
      expect(built, kind).not.toContain("hunter2");
      expect(built, kind).not.toContain("k-123456");
    }
  });
});
