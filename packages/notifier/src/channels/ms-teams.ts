import { defineChannel } from "../channel";
import { webhookUrlConfig } from "../fields";
import { type EventType, facts, headline, LINK_LABEL, monitorLink } from "../format";

const COLOR: Record<EventType, string> = { error: "Attention", degraded: "Warning", recovered: "Good", test: "Accent" };

/** An Adaptive Card wrapped in a message, the shape both Teams incoming webhooks and Workflows webhooks accept. */
export const msTeams = defineChannel({
  kind: "ms-teams",
  config: webhookUrlConfig(
    {
      example: "https://example.webhook.office.com/webhookb2/...",
      shownExample: "https://example.webhook.office.com/webhookb2/…",
      description: "A Teams incoming webhook, or a Workflows webhook trigger that posts to a channel. The URL is the credential.",
    },
    { title: "Microsoft Teams", description: "An adaptive card in a Teams channel." },
  ),
  secrets: ["webhookUrl"],
  build: (config, event, { env }) => {
    const card = {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.4",
      body: [
        { type: "TextBlock", text: headline(event), weight: "Bolder", size: "Medium", color: COLOR[event.type], wrap: true },
        { type: "FactSet", facts: facts(event).map((f) => ({ title: f.label, value: f.value })) },
      ],
      actions: [{ type: "Action.OpenUrl", title: LINK_LABEL, url: monitorLink(event, env) }],
    };
    const message = {
      type: "message",
      attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card }],
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
