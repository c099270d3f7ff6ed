"use client";
import type { Draft } from "./draft";
import { HeaderRows } from "./header-rows";
import { type FormKit, Section } from "./parts";

/** Where each check's metrics also go (OTLP/HTTP), with write-only headers. */
export function OtelSection({
  d,
  set,
  f,
  text,
  movedFrom,
  initial,
}: FormKit & { movedFrom: (stored: string, now: string) => { from: string; to: string } | null; initial: Draft }) {
  return (
    <Section title="OpenTelemetry" description="Optional: each check's metrics are also sent to your OTLP/HTTP collector.">
      {text("otelEndpoint", "OTLP endpoint", { hint: "http:// or https:// only, e.g. http://otel:4318/v1/metrics", mono: true })}
      <HeaderRows
        prefix="otelHeader"
        label="OTLP headers"
        add="Add OTLP header"
        rows={d.otelHeaders}
        onChange={(otelHeaders) => set({ otelHeaders })}
        moved={movedFrom(initial.otelEndpoint, d.otelEndpoint)}
        allSecret
        error={f("otelHeaders")}
      />
    </Section>
  );
}
