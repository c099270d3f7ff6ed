// Checked at once, in bulk: 5,000 TCP monitors (every minute) appear in one sync of a running probe, against
// loopback listeners, in-process (no server: results go to the outbox on disk and are read back from there).
// Set against the same 5,000 monitors at a probe's start, where each waits for its own slot (what a bulk
// creation did before). Time to first result: from the sync to the result's end (start + latency).
// End to end: the server and the probe in this process (as `pnpm start` runs them), 5,000 monitors created
// through POST /v1/monitors/batch, from the request to the first result stored; against one monitor created alone.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProbeMonitor, TcpCheck } from "@vigil/api-contract";
import { createPrivateLocation } from "@vigil/core";
import { checkResultRow, inIds } from "@vigil/db-schema";
import { startTestServer } from "@vigil/server/testing";
import { type BenchReport, percentile, sortNumbers, tcpListeners } from "./lib";

const MONITORS = 5_000;
const INTERVAL_MS = 60_000;
const GOAL_MS = 15_000;

function monitors(ports: number[], from: number, count: number): ProbeMonitor[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i,
    name: `tcp ${from + i}`,
    frequency: "1m" as const,
    intervalMs: INTERVAL_MS,
    version: 1,
    check: TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: ports[i % ports.length]!, retry: 0, timeoutMs: 5_000 }),
    openTelemetry: null,
  }));
}

/** The first result of each monitor in the outbox: its end (start + latency), by monitor id. */
function firstResults(dir: string): Map<number, number> {
  const first = new Map<number, number>();
  const outbox = join(dir, "outbox");
  for (const f of readdirSync(outbox).filter((n) => n.endsWith(".jsonl")))
    for (const line of readFileSync(join(outbox, f), "utf8").split("\n")) {
      if (!line) continue;
      try {
        const r = JSON.parse(line) as { monitorId: number; startedAt: number; latencyMs: number };
        const end = r.startedAt + r.latencyMs;
        if (!(first.get(r.monitorId)! <= end)) first.set(r.monitorId, end);
      } catch {} // a line being written
    }
  return first;
}

interface Run {
  firstMs: number[];
  lagP99: number;
  skipped: number;
}

/** A probe that runs `already` monitors, then gets `fresh` in one sync; waits for a result of each fresh one. */
async function run(ports: number[], bulkWhileRunning: boolean): Promise<Run> {
  const { Probe, ProbeEnv } = await import("@vigil/private-location");
  const { createLogger, createServiceApp } = await import("@vigil/service");
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-first-"));
  try {
    const logger = createLogger("bench", "silent");
    const { registry } = createServiceApp("bench", logger);
    const config = ProbeEnv.parse({ SERVICE_KEY: "vgl_loc_bench", SERVICE_INGEST_URL: "http://127.0.0.1:9", PROBE_DATA_DIR: dir });
    const probe = await Probe.open(config, logger, registry);
    const location = { id: 1, name: "bench", region: "private" as const };
    const old = monitors(ports, 1, 500);
    const fresh = monitors(ports, 1_000_001, MONITORS);
    if (bulkWhileRunning) {
      probe.applyMonitors({ location, monitors: old });
      await new Promise((r) => setTimeout(r, 2000));
    }
    const syncedAt = Date.now();
    probe.applyMonitors({ location, monitors: bulkWhileRunning ? [...old, ...fresh] : fresh });
    let first = new Map<number, number>();
    const until = syncedAt + INTERVAL_MS + 10_000;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      first = firstResults(dir);
      if (fresh.every((m) => first.has(m.id))) break;
    }
    const status = probe.status();
    const skipped = (await registry.getSingleMetric("vigil_probe_slots_skipped_total")!.get()).values.reduce((n, v) => n + v.value, 0);
    await probe.stop();
    const firstMs = fresh.map((m) => (first.get(m.id) ?? Number.POSITIVE_INFINITY) - syncedAt);
    return { firstMs: sortNumbers(firstMs), lagP99: status.lagMs.p99 ?? Number.NaN, skipped };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Server and probe in-process; `count` monitors created through the API (in requests of 1,000); ms from each request to its monitors' first stored result. */
async function endToEnd(ports: number[], count: number): Promise<number[]> {
  const { Probe, ProbeEnv } = await import("@vigil/private-location");
  const { createLogger, createServiceApp } = await import("@vigil/service");
  const s = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-first-e2e-"));
  try {
    const { key } = await createPrivateLocation(s.database.db, s.workspaceId, { name: "bench", region: "iad" }, "operator");
    const logger = createLogger("bench", "silent");
    const { registry } = createServiceApp("bench", logger);
    const config = ProbeEnv.parse({ SERVICE_KEY: key, SERVICE_INGEST_URL: s.url, PROBE_DATA_DIR: dir, PROBE_SEND_INTERVAL_MS: "200" });
    const probe = await Probe.open(config, logger, registry);
    await probe.connect();
    const entry = (i: number) => ({
      kind: "tcp",
      frequency: "1m",
      regions: ["iad"],
      timeout: "5s",
      request: { host: "127.0.0.1", port: ports[i % ports.length]! },
    });
    // A probe already running 500 monitors.
    await s.call("POST", "/v1/monitors/batch", { monitors: Array.from({ length: 500 }, (_, i) => entry(i)) });
    await new Promise((r) => setTimeout(r, 3000));
    const createdAt = new Map<number, number>();
    await Promise.all(
      Array.from({ length: Math.ceil(count / 1000) }, async (_, b) => {
        const at = Date.now();
        const n = Math.min(1000, count - b * 1000);
        const res = await s.call("POST", "/v1/monitors/batch", { monitors: Array.from({ length: n }, (_, i) => entry(i)) });
        if (res.status !== 201) throw new Error(`batch create answered ${res.status}`);
        for (const m of res.body.monitors as { id: number }[]) createdAt.set(m.id, at);
      }),
    );
    const firstAt = new Map<number, number>();
    const ids = [...createdAt.keys()];
    const until = Date.now() + 90_000;
    while (firstAt.size < ids.length && Date.now() < until) {
      const rows = await s.database.db
        .selectDistinct({ id: checkResultRow.monitorId })
        .from(checkResultRow)
        .where(inIds(checkResultRow.monitorId, ids));
      const now = Date.now();
      for (const r of rows) if (!firstAt.has(r.id)) firstAt.set(r.id, now);
      await new Promise((r) => setTimeout(r, 100));
    }
    await probe.stop();
    return sortNumbers(ids.map((id) => (firstAt.get(id) ?? Number.POSITIVE_INFINITY) - createdAt.get(id)!));
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function firstCheckBench(): Promise<BenchReport> {
  const listeners = await tcpListeners(4);
  try {
    const ownSlot = await run(listeners.ports, false);
    const bulk = await run(listeners.ports, true);
    const alone = await endToEnd(listeners.ports, 1);
    const created = await endToEnd(listeners.ports, MONITORS);
    const e2e = (metric: string, p: number, goal?: string) => ({
      metric,
      value: percentile(created, p) / 1000,
      unit: "s",
      baseline: alone[0]! / 1000,
      baselineName: "one monitor created alone",
      ...(goal && { goal, met: percentile(created, p) <= GOAL_MS }),
    });
    const row = (metric: string, p: number, goal?: string) => {
      const value = percentile(bulk.firstMs, p);
      return {
        metric,
        value: value / 1000,
        unit: "s",
        baseline: percentile(ownSlot.firstMs, p) / 1000,
        baselineName: "each at its own slot",
        ...(goal && { goal, met: value <= GOAL_MS }),
      };
    };
    return {
      title: "First check of 5,000 monitors created at once",
      rows: [
        row("time to first result p50", 50),
        row("time to first result p99", 99),
        row("time to first result max", 100, "≤ 15 s"),
        e2e("created → first result stored p50", 50),
        e2e("created → first result stored p99", 99),
        e2e("created → first result stored max", 100, "≤ 15 s"),
        {
          metric: "schedule lag p99 of on-time checks",
          value: bulk.lagP99,
          unit: "ms",
          baseline: ownSlot.lagP99,
          baselineName: "each at its own slot",
        },
      ],
      notes: [
        `${MONITORS} TCP monitors every minute against ${listeners.ports.length} loopback listeners appear in one sync of a probe already running 500; the baseline gives the same 5,000 to a probe at its start, where each waits for its own slot (what a bulk creation did before).`,
        "End to end: the server and the probe in this process (as `pnpm start` runs them), 5,000 monitors created in 5 concurrent POST /v1/monitors/batch of 1,000 while 500 run; the time from each request to its monitors' first result in the database (polled every 100 ms).",
        `First checks start in the slot under way at up to 500 a second; a monitor whose own slot comes within 5 s waits for it. Slots skipped: ${bulk.skipped} (baseline ${ownSlot.skipped}).`,
      ],
    };
  } finally {
    await listeners.close();
  }
}
