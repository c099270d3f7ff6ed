// What the OTLP export (otel.ts) and its lazily loaded SDK half (otel-sdk.ts) both speak of.
import type { Counter, Histogram } from "@opentelemetry/api";
import type { MeterProvider } from "@opentelemetry/sdk-metrics";
import type { ProbeMonitor } from "@vigil/api-contract";
import type { EgressPolicy } from "@vigil/egress";
import type { Logger } from "@vigil/service";

export interface Sink {
  endpoint: string;
  provider: MeterProvider;
  duration: Histogram;
  checks: Counter;
}

export type OtelTarget = NonNullable<ProbeMonitor["openTelemetry"]>;
export interface OtelOptions {
  intervalMs: number;
  logger: Logger;
  egress: EgressPolicy;
}
