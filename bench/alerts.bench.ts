// Alerts: from a result's ingest (POST /v1/probe/results) to the webhook's arrival, over 500 transitions, and
// with 1,000 monitors changing in one window, against a plain HTTP POST to the same receiver as baseline.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createChannel, createMonitors, createPrivateLocation } from "@vigil/core";
import { freePort } from "@vigil/db-schema/testing";
import { startTestServer } from "@vigil/server/testing";
import { startWorkflows, WorkflowsEnv } from "@vigil/workflows";
import { ulid } from "ulid";
import { type BenchReport, percentile, sortNumbers } from "./lib";

const MONITORS = 50;
const ROUNDS = 10; // 50 × 10 = 500 transitions, alternating error and recovered
/** Monitors whose deciding results land in one slot (one window), sent as a probe's outbox does: 500 a batch. */
const WINDOW = 1_000;
const WINDOW_ROUNDS = 2;
const PROBE_BATCH = 500;

export default async function alertsBench(): Promise<BenchReport> {
  const prefix = `bench-${randomBytes(3).toString("hex")}`;
  const s = await startTestServer({ QUEUE_PREFIX: prefix });
  const wf = await startWorkflows(
    WorkflowsEnv.parse({
      DATABASE_URL: s.database.url,
      QUEUE_PREFIX: prefix,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      NOTIFY_CONCURRENCY: "64",
      EVALUATE_CONCURRENCY: "4",
    }),
    { handleSignals: false },
  );
  const arrivals = new Map<string, number>();
  let waiting: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    let b = "";
    req.on("data", (d) => (b += d));
    req.on("end", () => {
      const p = JSON.parse(b) as { monitor: { id: number }; cronTimestamp: number; status: string };
      arrivals.set(`${p.monitor.id}:${p.cronTimestamp}`, performance.now());
      res.end("ok");
      waiting?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  const db = s.database.db;
  const { key } = await createPrivateLocation(db, s.workspaceId, { name: "bench", region: "iad" }, "operator");
  const all = [];
  for (let i = 0; i < MONITORS + WINDOW; i += 1000)
    all.push(
      ...(await createMonitors(
        db,
        s.workspaceId,
        Array.from({ length: Math.min(1000, MONITORS + WINDOW - i) }, (_, j) => ({
          kind: "tcp",
          frequency: "30s",
          regions: ["iad"],
          request: { host: "127.0.0.1", port: 2000 + i + j },
        })),
        "o",
      )),
    );
  const monitors = all.slice(0, MONITORS);
  const windowed = all.slice(MONITORS);
  await createChannel(db, s.workspaceId, { name: "hook", kind: "webhook", config: { url: hook }, monitors: all.map((m) => m.id) }, "o");

  let retried = 0;
  let slot = Date.UTC(2026, 0, 1);
  const post = async (results: unknown[]) => {
    const body = JSON.stringify({ results });
    // As a probe does: a 503 (database busy) is retried with the same batch.
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${s.url}/v1/probe/results`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      const text = await res.text();
      if (res.ok) return;
      retried++;
      if (res.status !== 503 || attempt > 20) throw new Error(`ingest answered ${res.status}: ${text}`);
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  };
  /**
   * `batch`: each round's results in POSTs of that many, one after the other, as a probe's outbox flush sends
   * them (each result timed from the start of its own POST); 0: one POST per result, all at once.
   */
  const run = async (monitors: { id: number }[], rounds: number, batch: number) => {
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round++) {
      slot += 30_000;
      const status = round % 2 === 0 ? "error" : "success";
      const results = monitors.map((m) => ({
        id: ulid(),
        monitorId: m.id,
        cronTimestamp: slot,
        startedAt: slot,
        status,
        latencyMs: 3,
        attempts: 1,
      }));
      const sent = new Map<string, number>();
      if (batch > 0)
        for (let i = 0; i < results.length; i += batch) {
          const part = results.slice(i, i + batch);
          const t0 = performance.now();
          for (const r of part) sent.set(`${r.monitorId}:${slot}`, t0);
          await post(part);
        }
      else {
        const t0 = performance.now();
        for (const m of monitors) sent.set(`${m.id}:${slot}`, t0);
        await Promise.all(results.map((r) => post([r])));
      }
      const deadline = Date.now() + 60_000 + results.length * 200;
      while ([...sent.keys()].some((k) => !arrivals.has(k))) {
        if (Date.now() > deadline)
          throw new Error(`alerts missing in round ${round}: ${[...sent.keys()].filter((k) => !arrivals.has(k)).join(", ")}`);
        await new Promise<void>((r) => {
          waiting = r;
          setTimeout(r, 50);
        });
      }
      for (const [k, t] of sent) latencies.push(arrivals.get(k)! - t);
    }
    return sortNumbers(latencies);
  };
  const batched = await run(monitors, ROUNDS, MONITORS);
  const burst = await run(monitors, ROUNDS, 0);
  const window = await run(windowed, WINDOW_ROUNDS, PROBE_BATCH);

  // Baseline: the same receiver hit directly, one POST per alert.
  const direct: number[] = [];
  for (let i = 0; i < MONITORS * ROUNDS; i++) {
    const t0 = performance.now();
    const res = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ monitor: { id: -1 }, cronTimestamp: i, status: "error" }),
    });
    await res.text();
    direct.push(performance.now() - t0);
  }
  await wf.close();
  await s.close();
  receiver.close();
  const base = sortNumbers(direct);
  const row = (name: string, xs: number[], p: number) => ({
    metric: `${name} p${p}`,
    unit: "ms",
    value: percentile(xs, p),
    baseline: percentile(base, p),
    baselineName: "direct webhook POST",
    ...(p === 99 ? { goal: "p99 < 2 s", met: percentile(xs, p) < 2000 } : {}),
  });
  return {
    title: "Alerts (ingest → webhook)",
    rows: [
      row("ingest → webhook, results in probe batches", batched, 50),
      row("ingest → webhook, results in probe batches", batched, 99),
      row("ingest → webhook, 50 single-result POSTs at once", burst, 50),
      row("ingest → webhook, 50 single-result POSTs at once", burst, 99),
      row("deciding result's ingest → webhook, 1,000 monitors in one window", window, 50),
      row("deciding result's ingest → webhook, 1,000 monitors in one window", window, 99),
    ],
    notes: [
      `${batched.length + burst.length} transitions: ${MONITORS} monitors × ${ROUNDS} rounds in each mode, error and recovered alternating; server, workflows, sqld and Redis on this machine.`,
      `One window: ${WINDOW} monitors go down in the same slot (then recover in the next), their results posted in batches of ${PROBE_BATCH} as a probe sends them; each alert timed from the start of the POST holding its result; ${window.length} alerts.`,
      `${retried} ingest POSTs answered 503 (database busy) and were retried, as a probe's outbox does.`,
    ],
  };
}
