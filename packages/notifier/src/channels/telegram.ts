import { z } from "zod";
import { defineChannel, requireEnv } from "../channel";
import { chatId } from "../fields";
import { escapeHtml, facts, headline, LINK_LABEL, monitorLink, STATUS_EMOJI } from "../format";

export const telegram = defineChannel({
  kind: "telegram",
  config: z
    .object({
      chatId: chatId().meta({
        title: "Chat ID",
        description: "A numeric chat id or a public channel’s @username. Add the server’s bot to the chat first.",
        examples: ["-1001234567890"],
      }),
    })
    .meta({ title: "Telegram", description: "A message from the server’s Telegram bot to a chat." }),
  secrets: [],
  build: (config, event, { env }) => {
    const token = requireEnv(env, "TELEGRAM_BOT_TOKEN", "telegram");
    // parse_mode HTML: Telegram rejects the whole message on an unescaped <, > or &.
    const text = [
      `${STATUS_EMOJI[event.type]} <b>${escapeHtml(headline(event))}</b>`,
      ...facts(event).map((f) => `${f.label}: ${escapeHtml(f.value)}`),
      `<a href="${escapeHtml(monitorLink(event, env))}">${LINK_LABEL}</a>`,
    ].join("\n");
    return {
      transport: "http",
      method: "POST",
      url: `${env.TELEGRAM_API_URL}/bot${token}/sendMessage`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: config.chatId, text, parse_mode: "HTML", link_preview_options: { is_disabled: true } }),
    };
  },
});
