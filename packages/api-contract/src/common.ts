import { z } from "zod";

export const FREQUENCIES = ["30s", "1m", "5m", "10m", "30m", "1h"] as const;
export const Frequency = z.enum(FREQUENCIES, { error: `must be one of ${FREQUENCIES.join(", ")}` });
export type Frequency = z.infer<typeof Frequency>;

const FREQUENCY_MS: Record<Frequency, number> = {
  "30s": 30_000,
  "1m": 60_000,
  "5m": 300_000,
  "10m": 600_000,
  "30m": 1_800_000,
  "1h": 3_600_000,
};
export const frequencyMs = (f: Frequency): number => FREQUENCY_MS[f];

/** Region ids (Fly.io codes); `private` stands for an operator's own location. */
export const REGIONS = [
  "ams",
  "arn",
  "atl",
  "bog",
  "bom",
  "bos",
  "cdg",
  "den",
  "dfw",
  "eze",
  "fra",
  "gdl",
  "gig",
  "gru",
  "hkg",
  "iad",
  "jnb",
  "lax",
  "lhr",
  "mad",
  "mia",
  "nrt",
  "ord",
  "otp",
  "phx",
  "qro",
  "scl",
  "sea",
  "sin",
  "sjc",
  "syd",
  "waw",
  "yul",
  "yyz",
  "private",
] as const;
export const FREE_REGIONS = ["jnb", "hkg", "ams", "iad", "gru", "syd"] as const;
export const Region = z.enum(REGIONS, { error: `must be a region id such as ${FREE_REGIONS.join(", ")}` });
export type Region = z.infer<typeof Region>;

/** The error body every HTTP boundary returns. */
export const ErrorBody = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    })
    .catchall(z.unknown()),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Flattens zod issues into `{ path, message }` pairs with dotted paths. */
export function toIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** Notification channel kinds: the spec's twelve plus Microsoft Teams. */
export const CHANNEL_KINDS = [
  "slack",
  "email",
  "discord",
  "grafana-oncall",
  "google-chat",
  "sms",
  "whatsapp",
  "telegram",
  "webhook",
  "opsgenie",
  "pagerduty",
  "ntfy",
  "ms-teams",
] as const;
