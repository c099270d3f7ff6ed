import type { Attributes } from "@opentelemetry/api";
import { type CheckResult, kindOf, type ProbeMonitor, redactUrl } from "@vigil/api-contract";
import type { OtelOptions, OtelTarget, Sink } from "./otel-types";

/** The OpenTelemetry SDK (~400 KB of code) loads when a monitor first exports: most probes never hold it. */
const loadSdk = () => import("./otel-sdk");
/** Results recorded while the SDK loads, replayed once it is there (bounded). */
const MAX_PENDING = 10_000;

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
  private sdk: Awaited<ReturnType<typeof loadSdk>> | undefined;
  private loading: Promise<void> | undefined;
  private latest: readonly ProbeMonitor[] = [];
  private pending: [ProbeMonitor, CheckResult][] = [];
  private closed = false;

  constructor(private readonly opts: OtelOptions) {}

  get exporters(): number {
    return this.sinks.size;
  }

  setRegion(region: string): void {
    this.region = region;
  }

  /** Creates the exporters `monitors` need and shuts down those none of them uses. */
  sync(monitors: readonly ProbeMonitor[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.latest = monitors;
    if (this.sdk) return Promise.resolve(this.apply(monitors));
    if (!monitors.some((m) => m.openTelemetry)) return Promise.resolve();
    this.loading ??= loadSdk().then(
      (sdk) => {
        sdk.routeDiagnostics(this.opts.logger);
        this.sdk = sdk;
        if (this.closed) return;
        this.apply(this.latest);
        const pending = this.pending;
        this.pending = [];
        for (const [m, result] of pending) this.record(m, result);
      },
      (err) => {
        this.loading = undefined;
        this.pending = [];
        this.opts.logger.error({ err }, "otel: the exporter could not load");
      },
    );
    return this.loading;
  }

  private apply(monitors: readonly ProbeMonitor[]): void {
    const sdk = this.sdk!;
    const wanted = new Map<string, OtelTarget>();
    for (const m of monitors) if (m.openTelemetry) wanted.set(keyOf(m.openTelemetry), m.openTelemetry);
    for (const [key, sink] of this.sinks) {
      if (wanted.has(key)) continue;
      this.sinks.delete(key);
      this.close(sink);
    }
    for (const [key, target] of wanted) if (!this.sinks.has(key)) this.sinks.set(key, sdk.openSink(target, this.opts, this.region));
  }

  record(m: ProbeMonitor, result: CheckResult): void {
    if (!m.openTelemetry) return;
    if (!this.sdk) {
      if (this.loading && this.pending.length < MAX_PENDING) this.pending.push([m, result]);
      return;
    }
    const sink = this.sinks.get(keyOf(m.openTelemetry));
    if (!sink) return;
    const attrs = checkAttributes(m, result, this.region);
    sink.duration.record(result.latencyMs / 1000, attrs);
    sink.checks.add(1, attrs);
  }

  /** Exports what is left and stops every exporter. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await this.loading;
    const all = [...this.sinks.values()];
    this.sinks.clear();
    await Promise.all(all.map((s) => this.close(s)));
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
