import { collectDefaultMetrics, Registry } from "prom-client";

export const dynamic = "force-dynamic";

const registry = new Registry();
registry.setDefaultLabels({ service: "dashboard" });
collectDefaultMetrics({ register: registry });

/** Prometheus text, like every other service's /metrics. */
export async function GET() {
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
}
