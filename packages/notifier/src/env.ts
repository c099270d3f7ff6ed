import { z } from "zod";

const httpUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    // Base URLs are joined with paths, so a trailing slash would double up.
    .transform((u) => u.replace(/\/+$/, ""))
    .default(fallback);

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an international number with a leading + such as +14155550123");

/**
 * Everything the notifier reads from the environment. Every provider base URL can be overridden
 * (self-hosted proxies, loopback servers in tests); credentials are optional because only the
 * channels a workspace actually uses need them — a channel missing its credential fails permanently
 * with a message naming the variable.
 */
export const NotifierEnv = z.object({
  DASHBOARD_URL: httpUrl("http://127.0.0.1:3002"),

  TELEGRAM_API_URL: httpUrl("https://api.telegram.org"),
  TELEGRAM_BOT_TOKEN: z.string().min(1).optional(),

  TWILIO_API_URL: httpUrl("https://api.twilio.com"),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /** SMS sender: a Twilio number in E.164 or an alphanumeric sender id. */
  TWILIO_FROM: z.string().min(1).optional(),
  /** WhatsApp-enabled sender number; falls back to TWILIO_FROM. */
  TWILIO_WHATSAPP_FROM: e164.optional(),

  OPSGENIE_API_URL: httpUrl("https://api.opsgenie.com"),
  OPSGENIE_EU_API_URL: httpUrl("https://api.eu.opsgenie.com"),
  PAGERDUTY_EVENTS_URL: httpUrl("https://events.pagerduty.com"),
  NTFY_URL: httpUrl("https://ntfy.sh"),

  /** Resend-compatible HTTP API: POST {base}/emails with a bearer key. */
  EMAIL_PROVIDER_API_URL: httpUrl("https://api.resend.com"),
  EMAIL_PROVIDER_API_KEY: z.string().min(1).optional(),
  /** Sender of alert mail, e.g. `Vigil <alerts@example.com>`. */
  EMAIL_FROM: z.string().min(1).optional(),
  /** When set, mail goes over SMTP instead of the HTTP API, e.g. smtps://user:pass@smtp.example.com:465. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),

  NOTIFIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});
export type NotifierEnv = z.infer<typeof NotifierEnv>;
