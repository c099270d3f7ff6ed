import { z } from "zod";
import { defineChannel } from "../channel";
import { apiKey } from "../fields";
import { type EventType, facts, headline, incidentKey, monitorLink, plainText, truncate } from "../format";

const PRIORITY: Record<Exclude<EventType, "recovered">, string> = { error: "P1", degraded: "P3", test: "P5" };

/** Opsgenie Alert API: create on error/degraded, close by alias on recovered, one alias per monitor. */
export const opsgenie = defineChannel({
  kind: "opsgenie",
  config: z
    .object({
      apiKey: apiKey().meta({ title: "API key", description: "The key of an API integration in Opsgenie." }),
      region: z
        .enum(["us", "eu"], { error: "must be us or eu" })
        .default("us")
        .meta({ title: "Region", description: "Where your Opsgenie account lives." }),
    })
    .meta({ title: "Opsgenie", description: "An alert that opens on failure and closes on recovery." }),
  secrets: ["apiKey"],
  build: (config, event, { env }) => {
    const base = config.region === "eu" ? env.OPSGENIE_EU_API_URL : env.OPSGENIE_API_URL;
    const headers = { authorization: `GenieKey ${config.apiKey}`, "content-type": "application/json" };
    const alias = incidentKey(event);
    if (event.type === "recovered") {
      const close = { source: "Vigil", note: truncate(plainText(event, env), 25_000) };
      return {
        transport: "http",
        method: "POST",
        url: `${base}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
        headers,
        body: JSON.stringify(close),
      };
    }
    const create = {
      message: truncate(headline(event), 130),
      alias,
      description: truncate(plainText(event, env), 15_000),
      details: { ...Object.fromEntries(facts(event).map((f) => [f.label, f.value])), Dashboard: monitorLink(event, env) },
      entity: truncate(event.monitor.url, 512),
      source: "Vigil",
      tags: ["vigil", event.type],
      priority: PRIORITY[event.type],
    };
    return { transport: "http", method: "POST", url: `${base}/v2/alerts`, headers, body: JSON.stringify(create) };
  },
});
