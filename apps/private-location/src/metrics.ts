import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The last `capacity` samples in a ring, for percentiles on /status without keeping every sample. */
export class RecentSamples {
  private readonly values: Float64Array;
  private count = 0;
  private next = 0;

  constructor(capacity = 8192) {
    this.values = new Float64Array(capacity);
  }

  add(v: number): void {
    this.values[this.next] = v;
    this.next = (this.next + 1) % this.values.length;
    if (this.count < this.values.length) this.count++;
  }

  get size(): number {
    return this.count;
  }

  /** Nearest-rank percentile (0-100) of what is held; null when empty. */
  percentile(p: number): number | null {
    if (this.count === 0) return null;
    const sorted = this.values.slice(0, this.count).sort();
    const i = Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1));
    return sorted[i]!;
  }
}

export type ProbeMetrics = ReturnType<typeof createProbeMetrics>;

/** Values read at scrape time. */
export interface ProbeGauges {
  running(): number;
  monitors(): number;
  outboxDepth(): number;
  outboxBytes(): number;
}

/** The probe's Prometheus series, on the registry of its service app. */
export function createProbeMetrics(registry: Registry, read: ProbeGauges) {
  const registers = [registry];
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(value());
      },
    });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });
  return {
    checks: counter("vigil_probe_checks_total", "Scheduled checks run, by kind and status", ["kind", "status"]),
    checkFailures: counter("vigil_probe_check_failures_total", "Scheduled checks that ended in error (retries used up), by kind", ["kind"]),
    skipped: counter(
      "vigil_probe_slots_skipped_total",
      "Slots not run: overlap = the previous check still ran, late = the slot's window passed before it could start, deadline = it started with no time left for an attempt (the probe's own load; not a result, never an alert)",
      ["reason"],
    ),
    lag: new Histogram({
      name: "vigil_probe_schedule_lag_seconds",
      help: "Actual start of a check minus its planned slot time",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    running: gauge("vigil_probe_running_checks", "Checks running now", read.running),
    monitors: gauge("vigil_probe_monitors", "Monitors scheduled on this probe", read.monitors),
    outboxDepth: gauge("vigil_probe_outbox_depth", "Results in the outbox not yet acknowledged by the server", read.outboxDepth),
    outboxBytes: gauge("vigil_probe_outbox_bytes", "Bytes of the outbox segments on disk", read.outboxBytes),
    outboxDropped: counter(
      "vigil_probe_outbox_dropped_total",
      "Results dropped without reaching the server: size/age bound, rejected by the server, unreadable line, write error",
      ["reason"],
    ),
    sent: counter("vigil_probe_results_sent_total", "Results acknowledged by the server, by outcome", ["outcome"]),
    resent: counter(
      "vigil_probe_results_resent_total",
      "Results sent again after their batch's send failed (the server may have stored them before; it drops doubles)",
    ),
    sendErrors: counter("vigil_probe_send_errors_total", "Failed result batch sends, by reason", ["reason"]),
    syncErrors: counter("vigil_probe_sync_errors_total", "Failed monitor syncs with the server, by reason", ["reason"]),
    runs: counter("vigil_probe_on_demand_runs_total", "On-demand runs answered, by outcome", ["outcome"]),
  };
}
