// Alerts: from a result's ingest (POST /v1/probe/results) to the webhook's arrival, over 500 transitions,
// against a plain HTTP POST to the same receiver as baseline.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createChannel, createMonitors, createPrivateLocation } from "@vigil/core";
import { freePort } from "@vigil/db-schema/testing";
import { ulid } from "ulid";
import { startTestServer } from "../apps/server/src/testing";
import { WorkflowsEnv } from "../apps/workflows/src/env";
import { startWorkflows } from "../apps/workflows/src/workflows";
import { type BenchReport, percentile, sortNumbers } from "./lib";

const MONITORS = 50;
const ROUNDS = 10; // 50 × 10 = 500 transitions, alternating error and recovered

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
  const monitors = await createMonitors(
    db,
    s.workspaceId,
    Array.from({ length: MONITORS }, (_, i) => ({
      kind: "tcp",
      frequency: "30s",
      regions: ["iad"],
      request: { host: "127.0.0.1", port: 2000 + i },
    })),
    "o",
  );
  await createChannel(
    db,
    s.workspaceId,
    { name: "hook", kind: "webhook", config: { url: hook }, monitors: monitors.map((m) => m.id) },
    "o",
  );

  const latencies: number[] = [];
  let slot = Date.UTC(2026, 0, 1);
  for (let round = 0; round < ROUNDS; round++) {
    slot += 30_000;
    const status = round % 2 === 0 ? "error" : "success";
    // One result per monitor, each in its own POST, as a probe flushing per check would.
    const sent = new Map<string, number>();
    await Promise.all(
      monitors.map(async (m) => {
        const k = `${m.id}:${slot}`;
        sent.set(k, performance.now());
        const res = await fetch(`${s.url}/v1/probe/results`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            results: [{ id: ulid(), monitorId: m.id, cronTimestamp: slot, startedAt: slot, status, latencyMs: 3, attempts: 1 }],
          }),
        });
        await res.text();
      }),
    );
    const deadline = Date.now() + 60_000;
    while ([...sent.keys()].some((k) => !arrivals.has(k))) {
      if (Date.now() > deadline) throw new Error(`alerts missing in round ${round}`);
      await new Promise<void>((r) => {
        waiting = r;
        setTimeout(r, 50);
      });
    }
    for (const [k, t0] of sent) latencies.push(arrivals.get(k)! - t0);
  }

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
  const ours = sortNumbers(latencies);
  const base = sortNumbers(direct);
  return {
    title: "Alerts (ingest → webhook)",
    rows: [
      {
        metric: "ingest → webhook arrival p50",
        unit: "ms",
        value: percentile(ours, 50),
        baseline: percentile(base, 50),
        baselineName: "direct webhook POST",
      },
      {
        metric: "ingest → webhook arrival p99",
        unit: "ms",
        value: percentile(ours, 99),
        baseline: percentile(base, 99),
        baselineName: "direct webhook POST",
        goal: "p99 < 2 s",
        met: percentile(ours, 99) < 2000,
      },
    ],
    notes: [
      `${ours.length} transitions (${MONITORS} monitors × ${ROUNDS} rounds, error and recovered alternating, 50 results in flight per round); server, workflows, sqld and Redis on this machine.`,
    ],
  };
}
