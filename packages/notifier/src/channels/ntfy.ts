import { z } from "zod";
import { defineChannel } from "../channel";
import { apiKey, httpUrl, topic } from "../fields";
import { type EventType, headline, monitorLink, plainText } from "../format";

const PRIORITY: Record<EventType, string> = { error: "5", degraded: "4", recovered: "3", test: "3" };
/** ntfy shows tags that name an emoji as that emoji in front of the title. */
const TAGS: Record<EventType, string> = { error: "rotating_light", degraded: "warning", recovered: "white_check_mark", test: "bell" };

/** HTTP headers are Latin-1 on the wire; ntfy decodes RFC 2047 encoded-words, so non-ASCII titles survive. */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, "utf8").toString("base64")}?=`;
}

export const ntfy = defineChannel({
  kind: "ntfy",
  config: z
    .object({
      topic: topic().meta({
        title: "Topic",
        description: "Letters, digits, - or _. Subscribe to it in the ntfy app.",
        examples: ["vigil-alerts"],
      }),
      server: httpUrl("https://ntfy.example.com")
        .optional()
        .meta({ title: "Server", description: "Your ntfy server. Empty: the server's default (NTFY_URL).", examples: ["https://ntfy.sh"] }),
      token: apiKey().optional().meta({ title: "Access token", description: "For a topic that needs one." }),
    })
    .meta({ title: "ntfy", description: "A push notification to an ntfy topic." }),
  secrets: ["token"],
  destination: "server",
  build: (config, event, { env }) => {
    const server = (config.server ?? env.NTFY_URL).replace(/\/+$/, "");
    const headers: Record<string, string> = {
      "content-type": "text/plain; charset=utf-8",
      title: headerText(headline(event)),
      priority: PRIORITY[event.type],
      tags: TAGS[event.type],
      click: monitorLink(event, env),
    };
    if (config.token !== undefined) headers.authorization = `Bearer ${config.token}`;
    return { transport: "http", method: "POST", url: `${server}/${config.topic}`, headers, body: plainText(event, env) };
  },
});
