import { defineChannel } from "../channel";
import { webhookUrlConfig } from "../fields";
import { headline, incidentKey, monitorLink, plainText } from "../format";

/** OnCall's "Formatted Webhook" integration: one alert group per monitor, `state: ok` resolves it. */
export const grafanaOncall = defineChannel({
  kind: "grafana-oncall",
  config: webhookUrlConfig(
    {
      example: "https://oncall.example.com/integrations/v1/formatted_webhook/abc/",
      title: "Integration URL",
      description: "The URL of a Formatted Webhook integration in Grafana OnCall. The URL is the credential.",
    },
    { title: "Grafana OnCall", description: "An alert group that opens on failure and resolves on recovery." },
  ),
  secrets: ["webhookUrl"],
  build: (config, event, { env }) => {
    const alert = {
      alert_uid: incidentKey(event),
      title: headline(event),
      state: event.type === "recovered" ? "ok" : "alerting",
      link_to_upstream_details: monitorLink(event, env),
      message: plainText(event, env),
    };
    return {
      transport: "http",
      method: "POST",
      url: config.webhookUrl,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(alert),
    };
  },
});
