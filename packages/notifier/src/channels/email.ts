import { createHash } from "node:crypto";
import { z } from "zod";
import { defineChannel, NotifierSetupError, requireEnv } from "../channel";
import type { NotificationEvent } from "../event";
import { emailAddress } from "../fields";
import { type EventType, escapeHtml, facts, headline, LINK_LABEL, monitorLink, plainText } from "../format";

const COLOR: Record<EventType, string> = { error: "#c0392b", degraded: "#d35400", recovered: "#27ae60", test: "#2980b9" };

function html(event: NotificationEvent, link: string): string {
  const rows = facts(event).map((f) => `<tr><th align="left">${escapeHtml(f.label)}</th><td>${escapeHtml(f.value)}</td></tr>`);
  return [
    "<!doctype html>",
    '<html><body style="font-family:sans-serif">',
    `<h2 style="color:${COLOR[event.type]}">${escapeHtml(headline(event))}</h2>`,
    "<table>",
    ...rows,
    "</table>",
    `<p><a href="${escapeHtml(link)}">${LINK_LABEL}</a></p>`,
    "</body></html>",
  ].join("\n");
}

/** The domain of `Name <user@domain>` or `user@domain`, for a Message-ID that is ours. */
const senderDomain = (from: string) => /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? "vigil.invalid";

/**
 * SMTP when SMTP_URL is set (an operator's relay wins over a hosted API), otherwise the
 * Resend-shaped HTTP API. Both carry a key derived from (monitor, slot, type), so a retried
 * delivery is the same message: an Idempotency-Key for the API, a Message-ID for SMTP.
 */
export const email = defineChannel({
  kind: "email",
  config: z.object({ email: emailAddress() }),
  secrets: [],
  build: (config, event, { env, now }) => {
    const from = requireEnv(env, "EMAIL_FROM", "email");
    const subject = `[Vigil] ${headline(event)}`;
    const text = plainText(event, env);
    const body = html(event, monitorLink(event, env));
    const key = `vigil-${event.monitor.id}-${event.cronTimestamp}-${event.type}`;
    if (env.SMTP_URL !== undefined) {
      const messageId = `<${key}@${senderDomain(from)}>`;
      const baseBoundary = createHash("sha256").update(messageId).digest("hex").slice(0, 16);
      return {
        transport: "smtp",
        smtpUrl: env.SMTP_URL,
        mail: { from, to: config.email, subject, text, html: body, messageId, date: now, baseBoundary },
      };
    }
    if (env.EMAIL_PROVIDER_API_KEY === undefined) {
      throw new NotifierSetupError("neither SMTP_URL nor EMAIL_PROVIDER_API_KEY is set; the email channel needs one");
    }
    return {
      transport: "http",
      method: "POST",
      url: `${env.EMAIL_PROVIDER_API_URL}/emails`,
      headers: {
        authorization: `Bearer ${env.EMAIL_PROVIDER_API_KEY}`,
        "content-type": "application/json",
        "idempotency-key": key,
      },
      body: JSON.stringify({ from, to: [config.email], subject, text, html: body }),
    };
  },
});
