import { metricsRefusal, metricsRefused } from "@vigil/config";
import { collectDefaultMetrics, Registry } from "prom-client";
import { getEnv } from "../../lib/env";

export const dynamic = "force-dynamic";

const registry = new Registry();
registry.setDefaultLabels({ service: "dashboard" });
collectDefaultMetrics({ register: registry });

/** Prometheus text, like every other service's /metrics: for the operator's scraper alone (VIGIL_METRICS_TOKEN). */
export async function GET(req: Request) {
  const refusal = metricsRefusal(req.headers.get("authorization"), getEnv().VIGIL_METRICS_TOKEN);
  if (refusal) return metricsRefused(refusal);
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
