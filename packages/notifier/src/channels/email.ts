import { z } from "zod";
import { defineChannel, NotifierSetupError, requireEnv } from "../channel";
import type { NotificationEvent } from "../event";
import { emailAddress } from "../fields";
import { type EventType, escapeHtml, facts, headline, LINK_LABEL, monitorLink, plainText } from "../format";
import { buildMail, mailTransport } from "../mail";

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

/**
 * Mail through the shared mail path (SMTP or the HTTP API). The key derives from (monitor, slot,
 * type), so a retried delivery is the same message: an Idempotency-Key for the API, a Message-ID for SMTP.
 */
export const email = defineChannel({
  kind: "email",
  config: z
    .object({
      email: emailAddress().meta({
        title: "Address",
        description: "Where alerts are mailed, through the server’s SMTP relay or email API.",
        examples: ["ops@example.com"],
      }),
    })
    .meta({ title: "Email", description: "A mail to one address." }),
  secrets: [],
  build: (config, event, { env, now }) => {
    requireEnv(env, "EMAIL_FROM", "email");
    if (mailTransport(env) === null) {
      throw new NotifierSetupError("neither SMTP_URL nor EMAIL_PROVIDER_API_KEY is set; the email channel needs one");
    }
    const msg = {
      to: config.email,
      subject: `[Vigil] ${headline(event)}`,
      text: plainText(event, env),
      html: html(event, monitorLink(event, env)),
      key: `${event.notice?.key ?? `vigil-${event.monitor.id}`}-${event.cronTimestamp}-${event.type}`,
    };
    return buildMail(env, msg, now);
  },
});
