import { metricsText } from "../../lib/metrics";

export const dynamic = "force-dynamic";

export function GET() {
  return new Response(metricsText(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
}
