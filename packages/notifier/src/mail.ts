import { createHash } from "node:crypto";
import { NotifierSetupError, type OutgoingRequest } from "./channel";
import type { NotifierEnv } from "./env";
import { type SendResult, send } from "./send";

/** One mail of ours: alerts, sign-in links, invitations, status-page subscriber mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per logical message: a retry is the same message (Idempotency-Key, Message-ID). */
  key: string;
}

/** The domain of `Name <user@domain>` or `user@domain`, for a Message-ID that is ours. */
const senderDomain = (from: string) => /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? "vigil.invalid";

/** Which path mail takes: SMTP when SMTP_URL is set (an operator's relay wins), else the HTTP API, else none. */
export function mailTransport(env: NotifierEnv): "smtp" | "http" | null {
  if (env.SMTP_URL !== undefined) return "smtp";
  return env.EMAIL_PROVIDER_API_KEY !== undefined ? "http" : null;
}

/**
 * The request that sends `msg`: SMTP (fixed Message-ID, date and MIME boundary, so it is
 * reproducible) or the Resend-shaped HTTP API with an Idempotency-Key.
 */
export function buildMail(env: NotifierEnv, msg: MailMessage, now: number): OutgoingRequest {
  const from = env.EMAIL_FROM;
  if (from === undefined) throw new NotifierSetupError("EMAIL_FROM is not set; sending mail needs a sender address");
  if (env.SMTP_URL !== undefined) {
    const messageId = `<${msg.key}@${senderDomain(from)}>`;
    const baseBoundary = createHash("sha256").update(messageId).digest("hex").slice(0, 16);
    return {
      transport: "smtp",
      smtpUrl: env.SMTP_URL,
      mail: { from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html, messageId, date: now, baseBoundary },
    };
  }
  if (env.EMAIL_PROVIDER_API_KEY === undefined) {
    throw new NotifierSetupError("neither SMTP_URL nor EMAIL_PROVIDER_API_KEY is set; sending mail needs one");
  }
  return {
    transport: "http",
    method: "POST",
    url: `${env.EMAIL_PROVIDER_API_URL}/emails`,
    headers: {
      authorization: `Bearer ${env.EMAIL_PROVIDER_API_KEY}`,
      "content-type": "application/json",
      "idempotency-key": msg.key,
    },
    body: JSON.stringify({ from, to: [msg.to], subject: msg.subject, text: msg.text, html: msg.html }),
  };
}

/** Sends one mail; never throws for the provider's failure (see `send`), only for a missing setup. */
export function sendMail(env: NotifierEnv, msg: MailMessage, now = Date.now()): Promise<SendResult> {
  return send(buildMail(env, msg, now), { timeoutMs: env.NOTIFIER_TIMEOUT_MS });
}
