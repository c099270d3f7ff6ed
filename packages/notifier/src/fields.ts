import { z } from "zod";

/** Config field schemas shared by channels; every message reads well after the field's name. */

/** A missing key reads "is required"; a present but wrong one reads the rule. */
export const required = (rule: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : rule);

export const httpUrl = (example: string) => {
  const rule = `must be an http:// or https:// URL such as ${example}`;
  return z.url({ protocol: /^https?$/, error: required(rule) });
};

export const phone = () =>
  z
    .string({ error: required("must be a string") })
    .regex(/^\+[1-9]\d{6,14}$/, "must be an international number with a leading + such as +14155550123");

export const emailAddress = () => z.email({ error: required("must be an email address such as ops@example.com") });

/** Keys and tokens land in an Authorization header, which carries printable ASCII only. */
export const apiKey = () =>
  z
    .string({ error: required("must be a string") })
    .trim()
    .min(1, "must not be empty")
    .regex(/^[\x21-\x7e]*$/, "must be printable ASCII without spaces");

/** Telegram chat ids are integers, so a number is accepted too and sent as its digits. */
export const chatId = () =>
  z.preprocess(
    (value) => (typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value),
    z
      .string({ error: required("must be a numeric chat id or a channel username") })
      .regex(
        /^(-?\d+|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
        "must be a numeric chat id such as -1001234567890 or a channel username such as @vigil_alerts",
      ),
  );

export const topic = () =>
  z.string({ error: required("must be a string") }).regex(/^[-_A-Za-z0-9]{1,64}$/, "must be 1 to 64 letters, digits, - or _");

/** Set by the HTTP client from the request itself; a user value would corrupt the request. */
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export const headerMap = () =>
  z
    .record(
      z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be a valid HTTP header name"),
      // Header values travel as Latin-1 and the HTTP client refuses line breaks; printable ASCII is what survives everywhere.
      z.string({ error: "must be a string" }).regex(/^[\t\x20-\x7e]*$/, "must be printable ASCII, without line breaks"),
      {
        error: (issue) =>
          issue.code === "invalid_key" ? "must be a valid HTTP header name" : "must be an object of header names to values",
      },
    )
    .superRefine((headers, ctx) => {
      for (const name of Object.keys(headers)) {
        if (RESERVED_HEADERS.has(name.toLowerCase()))
          ctx.addIssue({ code: "custom", path: [name], message: "is set by Vigil and cannot be overridden" });
      }
    });

/** The config of a channel that posts to one webhook URL the user copies from the receiving app. */
export const webhookUrlConfig = (
  field: { example: string; description: string; title?: string; shownExample?: string },
  channel: { title: string; description: string },
) =>
  z
    .object({
      webhookUrl: httpUrl(field.example).meta({
        title: field.title ?? "Webhook URL",
        description: field.description,
        examples: [field.shownExample ?? field.example],
      }),
    })
    .meta(channel);
