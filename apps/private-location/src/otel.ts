import { type Attributes, type Counter, DiagLogLevel, diag, type Histogram, ValueType } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { type CheckResult, kindOf, type ProbeMonitor, redactUrl } from "@vigil/api-contract";
import { type EgressPolicy, egressHttpAgent } from "@vigil/egress";
import type { Logger } from "@vigil/service";

/** Seconds; finer at the low end, where healthy checks are. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

interface Sink {
  endpoint: string;
  provider: MeterProvider;
  duration: Histogram;
  checks: Counter;
}

type OtelTarget = NonNullable<ProbeMonitor["openTelemetry"]>;

const keyOf = (t: OtelTarget) => `${t.endpoint}\n${JSON.stringify(Object.entries(t.headers).sort(([a], [b]) => (a < b ? -1 : 1)))}`;

/** OTel semantic-convention attributes where they exist (server.*, url.full, http.*, cloud.region), vigil.* otherwise. */
export function checkAttributes(m: ProbeMonitor, result: CheckResult, region: string): Attributes {
  return {
    "vigil.monitor.id": m.id,
    "vigil.monitor.name": m.name,
    "vigil.check.kind": m.check.kind,
    "vigil.check.status": result.status,
    "cloud.region": region,
    ...kindOf(m.check.kind).attributes(m.check, result),
  };
}

/**
 * Exports check metrics over OTLP/HTTP (JSON) for monitors that name an endpoint: a duration histogram
 * and a counter by status. One MeterProvider + exporter per distinct endpoint and header set, made when
 * a monitor first needs it and shut down (after a last export) when no monitor uses it any more.
 */
export class OtelExport {
  private readonly sinks = new Map<string, Sink>();
  private region = "";

  constructor(private readonly opts: { intervalMs: number; logger: Logger; egress: EgressPolicy }) {
    const warn = (message: string, ...args: unknown[]) => opts.logger.warn({ component: "otel", detail: args.map(String) }, message);
    diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
  }

  get exporters(): number {
    return this.sinks.size;
  }

  setRegion(region: string): void {
    this.region = region;
  }

  /** Creates the exporters `monitors` need and shuts down those none of them uses. */
  sync(monitors: readonly ProbeMonitor[]): void {
    const wanted = new Map<string, OtelTarget>();
    for (const m of monitors) if (m.openTelemetry) wanted.set(keyOf(m.openTelemetry), m.openTelemetry);
    for (const [key, sink] of this.sinks) {
      if (wanted.has(key)) continue;
      this.sinks.delete(key);
      this.close(sink);
    }
    for (const [key, target] of wanted) if (!this.sinks.has(key)) this.sinks.set(key, this.open(target));
  }

  record(m: ProbeMonitor, result: CheckResult): void {
    if (!m.openTelemetry) return;
    const sink = this.sinks.get(keyOf(m.openTelemetry));
    if (!sink) return;
    const attrs = checkAttributes(m, result, this.region);
    sink.duration.record(result.latencyMs / 1000, attrs);
    sink.checks.add(1, attrs);
  }

  /** Exports what is left and stops every exporter. */
  async shutdown(): Promise<void> {
    const all = [...this.sinks.values()];
    this.sinks.clear();
    await Promise.all(all.map((s) => this.close(s)));
  }

  private open(target: OtelTarget): Sink {
    const exporter = new OTLPMetricExporter({
      url: target.endpoint,
      headers: target.headers,
      timeoutMillis: Math.min(10_000, this.opts.intervalMs),
      // The endpoint is the tenant's: its connections are checked like a check's (never the instance's database).
      httpAgentOptions: (protocol) => egressHttpAgent(this.opts.egress, protocol),
    });
    const provider = new MeterProvider({
      resource: resourceFromAttributes({ "service.name": "vigil-private-location", "cloud.region": this.region }),
      readers: [
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: this.opts.intervalMs,
          exportTimeoutMillis: Math.min(10_000, this.opts.intervalMs),
        }),
      ],
    });
    const meter = provider.getMeter("vigil-private-location");
    this.opts.logger.info({ endpoint: redactUrl(target.endpoint), region: this.region }, "otel: exporting check metrics");
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

  private async close(sink: Sink): Promise<void> {
    try {
      await sink.provider.shutdown();
      this.opts.logger.info({ endpoint: redactUrl(sink.endpoint) }, "otel: exporter stopped");
    } catch (err) {
      this.opts.logger.warn({ err, endpoint: redactUrl(sink.endpoint) }, "otel: exporter did not shut down cleanly");
    }
  }
}
