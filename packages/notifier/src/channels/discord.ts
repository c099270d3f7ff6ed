import { defineChannel } from "../channel";
import { webhookUrlConfig } from "../fields";
import { type EventType, facts, headline, isoTime, monitorLink, truncate } from "../format";

const COLOR: Record<EventType, number> = { error: 0xe74c3c, degraded: 0xf39c12, recovered: 0x2ecc71, test: 0x3498db };

export const discord = defineChannel({
  kind: "discord",
  config: webhookUrlConfig(
    {
      example: "https://discord.com/api/webhooks/123/abc",
      description: "Channel settings → Integrations → Webhooks → Copy Webhook URL. The URL is the credential.",
    },
    { title: "Discord", description: "An embed in a Discord channel, through a channel webhook." },
  ),
  secrets: ["webhookUrl"],
  build: (config, event, { env }) => {
    const message = {
      embeds: [
        {
          title: truncate(headline(event), 256),
          url: monitorLink(event, env),
          color: COLOR[event.type],
          // Short values side by side; the URL and the error get a full row.
          fields: facts(event).map((f) => ({ name: f.label, value: f.value, inline: f.key !== "url" && f.key !== "error" })),
          timestamp: isoTime(event),
          footer: { text: "Vigil" },
        },
      ],
      // Monitor names and error texts are user input: never let them ping @everyone or a role.
      allowed_mentions: { parse: [] },
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
