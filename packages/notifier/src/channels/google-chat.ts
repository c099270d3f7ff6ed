import { defineChannel } from "../channel";
import { webhookUrlConfig } from "../fields";
import { escapeHtml, facts, headline, LINK_LABEL, monitorLink, STATUS_EMOJI } from "../format";

export const googleChat = defineChannel({
  kind: "google-chat",
  config: webhookUrlConfig(
    {
      example: "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=...&token=...",
      shownExample: "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=…&token=…",
      description: "In the space: Apps & integrations → Webhooks → Add webhook. The URL is the credential.",
    },
    { title: "Google Chat", description: "A card message in a Google Chat space." },
  ),
  secrets: ["webhookUrl"],
  build: (config, event, { env }) => {
    const message = {
      // The text line is what notifications and the space's preview show.
      text: `${STATUS_EMOJI[event.type]} ${headline(event)}`,
      cardsV2: [
        {
          cardId: `vigil-monitor-${event.monitor.id}`,
          card: {
            header: { title: headline(event), subtitle: "Vigil" },
            sections: [
              {
                widgets: [
                  // decoratedText renders a subset of HTML, so user strings are escaped.
                  ...facts(event).map((f) => ({ decoratedText: { topLabel: f.label, text: escapeHtml(f.value), wrapText: true } })),
                  { buttonList: { buttons: [{ text: LINK_LABEL, onClick: { openLink: { url: monitorLink(event, env) } } }] } },
                ],
              },
            ],
          },
        },
      ],
    };
    return {
      transport: "http",
      method: "POST",
      url: config.webhookUrl,
      headers: { "content-type": "application/json; charset=UTF-8" },
      body: JSON.stringify(message),
    };
  },
});
