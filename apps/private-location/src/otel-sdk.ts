// The OpenTelemetry SDK half of the OTLP export, loaded only when a monitor exports (otel.ts).
import { DiagLogLevel, diag, ValueType } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { redactUrl } from "@vigil/api-contract";
import { egressHttpAgent } from "@vigil/egress";
import type { Logger } from "@vigil/service";
import type { OtelOptions, OtelTarget, Sink } from "./otel-types";

/** Seconds; finer at the low end, where healthy checks are. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

/** The SDK's own warnings (an endpoint refusing an export) go to the probe's log. */
export function routeDiagnostics(logger: Logger): void {
  const warn = (message: string, ...args: unknown[]) => logger.warn({ component: "otel", detail: args.map(String) }, message);
  diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
}

export function openSink(target: OtelTarget, opts: OtelOptions, region: string): Sink {
  const exporter = new OTLPMetricExporter({
    url: target.endpoint,
    headers: target.headers,
    timeoutMillis: Math.min(10_000, opts.intervalMs),
    // The endpoint is the tenant's: its connections are checked like a check's (never the instance's database).
    httpAgentOptions: (protocol) => egressHttpAgent(opts.egress, protocol),
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ "service.name": "vigil-private-location", "cloud.region": region }),
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: opts.intervalMs,
        exportTimeoutMillis: Math.min(10_000, opts.intervalMs),
      }),
    ],
  });
  const meter = provider.getMeter("vigil-private-location");
  opts.logger.info({ endpoint: redactUrl(target.endpoint), region }, "otel: exporting check metrics");
  return {
    endpoint: target.endpoint,
    provider,
    duration: meter.createHistogram("vigil.check.duration", {
      unit: "s",
      description: "Duration of a check (connect time for TCP, response time for HTTP)",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    // Named per the OTel naming rules: a count of discrete things, no `_total`/`.count` suffix.
    checks: meter.createCounter("vigil.checks", { unit: "{check}", description: "Checks run, by status", valueType: ValueType.INT }),
  };
}
