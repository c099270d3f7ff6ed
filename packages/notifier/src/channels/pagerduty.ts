import { z } from "zod";
import { defineChannel } from "../channel";
import { required } from "../fields";
import { displayName, type EventType, facts, headline, incidentKey, isoTime, LINK_LABEL, monitorLink, truncate } from "../format";

const SEVERITY: Record<Exclude<EventType, "recovered">, string> = { error: "critical", degraded: "warning", test: "info" };

/** PagerDuty Events API v2: trigger on error/degraded, resolve on recovered, one dedup key per monitor. */
export const pagerduty = defineChannel({
  kind: "pagerduty",
  config: z
    .object({
      routingKey: z
        .string({ error: required("must be a string") })
        .regex(/^[A-Za-z0-9]{32}$/, "must be the 32-character integration key of an Events API v2 integration")
        .meta({ title: "Integration key", description: "The 32-character routing key of an Events API v2 integration on your service." }),
    })
    .meta({
      title: "PagerDuty",
      description: "An incident that triggers on failure and resolves on recovery. Needs the incident-alerting limit.",
    }),
  secrets: ["routingKey"],
  build: (config, event, { env }) => {
    const url = `${env.PAGERDUTY_EVENTS_URL}/v2/enqueue`;
    const headers = { "content-type": "application/json" };
    if (event.type === "recovered") {
      const resolve = { routing_key: config.routingKey, event_action: "resolve", dedup_key: incidentKey(event) };
      return { transport: "http", method: "POST", url, headers, body: JSON.stringify(resolve) };
    }
    const summary = event.errorMessage ? `${headline(event)}: ${event.errorMessage}` : headline(event);
    const trigger = {
      routing_key: config.routingKey,
      event_action: "trigger",
      dedup_key: incidentKey(event),
      payload: {
        summary: truncate(summary, 1024),
        source: event.monitor.url,
        severity: SEVERITY[event.type],
        timestamp: isoTime(event),
        component: displayName(event),
        custom_details: Object.fromEntries(facts(event).map((f) => [f.label, f.value])),
      },
      client: "Vigil",
      client_url: monitorLink(event, env),
      links: [{ href: monitorLink(event, env), text: LINK_LABEL }],
    };
    return { transport: "http", method: "POST", url, headers, body: JSON.stringify(trigger) };
  },
});
