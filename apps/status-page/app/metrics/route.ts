import { metricsRefusal, metricsRefused } from "@vigil/config";
import { getEnv } from "../../lib/env";
import { metricsText } from "../../lib/metrics";

export const dynamic = "force-dynamic";

/** Prometheus text for the operator's scraper alone (VIGIL_METRICS_TOKEN as a bearer token). */
export function GET(req: Request) {
  const refusal = metricsRefusal(req.headers.get("authorization"), getEnv().VIGIL_METRICS_TOKEN);
  if (refusal) return metricsRefused(refusal);
  return new Response(metricsText(), {
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
}
