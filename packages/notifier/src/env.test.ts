import { describe, expect, it } from "vitest";
import { NotifierEnv } from "./env";

describe("NotifierEnv", () => {
  it("an empty environment points every provider at its public API and the dashboard at port 3002", () => {
    expect(NotifierEnv.parse({})).toEqual({
      DASHBOARD_URL: "http://127.0.0.1:3002",
      TELEGRAM_API_URL: "https://api.telegram.org",
      TWILIO_API_URL: "https://api.twilio.com",
      OPSGENIE_API_URL: "https://api.opsgenie.com",
      OPSGENIE_EU_API_URL: "https://api.eu.opsgenie.com",
      PAGERDUTY_EVENTS_URL: "https://events.pagerduty.com",
      NTFY_URL: "https://ntfy.sh",
      EMAIL_PROVIDER_API_URL: "https://api.resend.com",
      NOTIFIER_TIMEOUT_MS: 10_000,
    });
  });

  it("an overridden base URL loses its trailing slash, so paths join cleanly", () => {
    expect(NotifierEnv.parse({ NTFY_URL: "https://ntfy.example.com/", DASHBOARD_URL: "https://vigil.example.com//" })).toMatchObject({
      NTFY_URL: "https://ntfy.example.com",
      DASHBOARD_URL: "https://vigil.example.com",
    });
  });

  it.each([
    ["SMTP_URL", "http://mail.example.com", "must be an smtp:// or smtps:// URL"],
    ["PAGERDUTY_EVENTS_URL", "events.pagerduty.com", "must be an http:// or https:// URL"],
    ["TWILIO_WHATSAPP_FROM", "14155238886", "must be an international number with a leading + such as +14155550123"],
  ])("a bad %s is refused with the rule", (name, value, message) => {
    const parsed = NotifierEnv.safeParse({ [name]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([[name, message]]);
  });
});
