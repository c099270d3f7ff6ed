import { defineChannel } from "../channel";
import { webhookUrlConfig } from "../fields";
import { ACK_LABEL, facts, headline, LINK_LABEL, monitorLink, STATUS_EMOJI, truncate } from "../format";

/** Slack's mrkdwn treats these three as control characters; everything else is literal. */
const escapeMrkdwn = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const slack = defineChannel({
  kind: "slack",
  config: webhookUrlConfig(
    {
      example: "https://hooks.slack.com/services/T000/B000/XXXX",
      description: "From your Slack app: Incoming Webhooks → Add New Webhook to Workspace. The URL is the credential.",
    },
    { title: "Slack", description: "A Block Kit message in a channel, through an incoming webhook." },
  ),
  // An incoming-webhook URL is its own credential.
  secrets: ["webhookUrl"],
  build: (config, event, { env }) => {
    const title = `${STATUS_EMOJI[event.type]} ${headline(event)}`;
    const message = {
      text: escapeMrkdwn(title), // shown in notifications and by clients without Block Kit
      blocks: [
        { type: "header", text: { type: "plain_text", text: truncate(title, 150), emoji: true } },
        {
          type: "section",
          fields: facts(event)
            .filter((f) => f.key !== "acknowledge")
            .map((f) => ({ type: "mrkdwn", text: `*${f.label}*\n${escapeMrkdwn(f.value)}` })),
        },
        {
          type: "actions",
          elements: [
            { type: "button", text: { type: "plain_text", text: LINK_LABEL }, url: monitorLink(event, env) },
            ...(event.ackUrl && event.type !== "recovered"
              ? [{ type: "button", text: { type: "plain_text", text: ACK_LABEL }, url: event.ackUrl }]
              : []),
          ],
        },
      ],
    };
    return {
      transport: "http",
      method: "POST",
      url: config.webhookUrl,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(message),
    };
  },
});
