// Alerts: from a result's ingest (POST /v1/probe/results) to the webhook's arrival, over 500 transitions, and
// with 1,000 monitors changing in one window, against a plain HTTP POST to the same receiver as baseline.

import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
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
const WINDOW_ROUNDS = 4;
const PROBE_BATCH = 500;
/** The workflows' default (NOTIFY_CONCURRENCY): the burst baseline keeps as many POSTs in flight. */
const NOTIFY_CONCURRENCY = 128;
/** The webhook receiver's process: answers every POST, reports `monitorId:cronTimestamp` and arrival time. */
const RECEIVER = `
import { createServer } from "node:http";
let batch = [];
const server = createServer((req, res) => {
  let b = "";
  req.on("data", (d) => (b += d));
  req.on("end", () => {
    const p = JSON.parse(b);
    batch.push([p.monitor.id + ":" + p.cronTimestamp, performance.timeOrigin + performance.now()]);
    res.end("ok");
  });
});
setInterval(() => { if (batch.length) { process.send({ arrived: batch }); batch = []; } }, 5);
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
`;

export default async function alertsBench(): Promise<BenchReport> {
  const load = { start: loadavg()[0]! };
  const prefix = `bench-${randomBytes(3).toString("hex")}`;
  const s = await startTestServer({ QUEUE_PREFIX: prefix });
  const wf = await startWorkflows(
    WorkflowsEnv.parse({
      DATABASE_URL: s.database.url,
      QUEUE_PREFIX: prefix,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
    }),
    { handleSignals: false },
  );
  const arrivals = new Map<string, number>();
  /** Alerts arrived per slot: the wait below counts, rather than scanning every key at each arrival (CPU the alerts need). */
  const arrivedIn = new Map<number, number>();
  // The receiver is another process, as a real one is: its own CPU is not the pipeline's. It stamps each
  // arrival on the shared wall clock (timeOrigin + now, sub-millisecond) and reports them in batches.
  const receiver = fork("-", [], {
    execArgv: ["--input-type=module", "-e", RECEIVER],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  receiver.on("message", (m: { arrived?: [string, number][] }) => {
    for (const [key, at] of m.arrived ?? []) {
      const slot = Number(key.split(":")[1]);
      if (!arrivals.has(key)) arrivedIn.set(slot, (arrivedIn.get(slot) ?? 0) + 1);
      arrivals.set(key, at);
    }
  });
  const port = await new Promise<number>((r) => receiver.once("message", (m: { port: number }) => r(m.port)));
  const hook = `http://127.0.0.1:${port}/hook`;
  const now = () => performance.timeOrigin + performance.now();

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
  const run = async (monitors: { id: number }[], rounds: number, batch: number, cpu: number[] = []) => {
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const cpu0 = process.cpuUsage();
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
          const t0 = now();
          for (const r of part) sent.set(`${r.monitorId}:${slot}`, t0);
          await post(part);
        }
      else {
        const t0 = now();
        for (const m of monitors) sent.set(`${m.id}:${slot}`, t0);
        await Promise.all(results.map((r) => post([r])));
      }
      const deadline = Date.now() + 60_000 + results.length * 200;
      // Each alert is timed by the receiver as it lands; this loop only waits for the last one.
      while ((arrivedIn.get(slot) ?? 0) < sent.size) {
        if (Date.now() > deadline)
          throw new Error(`alerts missing in round ${round}: ${[...sent.keys()].filter((k) => !arrivals.has(k)).join(", ")}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      for (const [k, t] of sent) latencies.push(arrivals.get(k)! - t);
      const used = process.cpuUsage(cpu0);
      cpu.push((used.user + used.system) / 1000);
    }
    return sortNumbers(latencies);
  };
  const batched = await run(monitors, ROUNDS, MONITORS);
  const burst = await run(monitors, ROUNDS, 0);
  const windowCpu: number[] = [];
  const window = await run(windowed, WINDOW_ROUNDS, PROBE_BATCH, windowCpu);

  // Baselines: the same receiver hit directly, one POST per alert; and the window's 1,000 alerts POSTed at once
  // with the notifier's concurrency, each timed from the start of the burst.
  const direct: number[] = [];
  const post1 = async (i: number) => {
    const res = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ monitor: { id: -1 }, cronTimestamp: i, status: "error" }),
    });
    await res.text();
  };
  for (let i = 0; i < MONITORS * ROUNDS; i++) {
    const t0 = now();
    await post1(i);
    direct.push(now() - t0);
  }
  const burstDirect: number[] = [];
  const b0 = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: NOTIFY_CONCURRENCY }, async () => {
      while (next < WINDOW) {
        await post1(-1 - next++);
        burstDirect.push(now() - b0);
      }
    }),
  );
  await wf.close();
  await s.close();
  receiver.kill();
  const base = sortNumbers(direct);
  const burstBase = sortNumbers(burstDirect);
  const row = (name: string, xs: number[], p: number, goalMs: number, baseline = base, baselineName = "direct webhook POST") => ({
    metric: `${name} p${p}`,
    unit: "ms",
    value: percentile(xs, p),
    baseline: percentile(baseline, p),
    baselineName,
    ...(p === 99 ? { goal: `p99 < ${goalMs / 1000} s`, met: percentile(xs, p) < goalMs } : {}),
  });
  const windowRow = (p: number) =>
    row(
      "deciding result's ingest → webhook, 1,000 monitors in one window",
      window,
      p,
      1000,
      burstBase,
      `1,000 direct POSTs at once, ${NOTIFY_CONCURRENCY} in flight`,
    );
  return {
    title: "Alerts (ingest → webhook)",
    rows: [
      row("ingest → webhook, results in probe batches", batched, 50, 2000),
      row("ingest → webhook, results in probe batches", batched, 99, 2000),
      row("ingest → webhook, 50 single-result POSTs at once", burst, 50, 2000),
      row("ingest → webhook, 50 single-result POSTs at once", burst, 99, 2000),
      windowRow(50),
      windowRow(99),
    ],
    notes: [
      `${batched.length + burst.length} transitions: ${MONITORS} monitors × ${ROUNDS} rounds in each mode, error and recovered alternating; server and workflows in this one process (as \`pnpm start\` runs them), sqld and Redis beside it, on this machine.`,
      `One window: ${WINDOW} monitors go down in the same slot, then recover in the next (${WINDOW_ROUNDS} rounds), their results posted in batches of ${PROBE_BATCH} as a probe sends them; each alert timed from the start of the POST holding its result; ${window.length} alerts. CPU of this process per window round: ${windowCpu.map((ms) => `${Math.round(ms)} ms`).join(", ")}.`,
      `${retried} ingest POSTs answered 503 (database busy) and were retried, as a probe's outbox does.`,
      `Load average (1 min) at the start and end: ${load.start.toFixed(1)}, ${loadavg()[0]!.toFixed(1)} (the machine is shared; the baselines ran in the same minutes).`,
    ],
  };
}
