// Ingest: results per second through POST /v1/probe/results (batches of 100) against raw inserts into sqld.
import { createMonitors, createPrivateLocation } from "@vigil/core";
import { checkResultRow, writeBatch } from "@vigil/db-schema";
import { startTestServer } from "@vigil/server/testing";
import { ulid } from "ulid";
import type { BenchReport } from "./lib";

const BATCH = 100;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 200);
const CONCURRENCY = 4;

export default async function ingestBench(): Promise<BenchReport> {
  const s = await startTestServer();
  const db = s.database.db;
  const { key } = await createPrivateLocation(db, s.workspaceId, { name: "bench", region: "iad" }, "operator");
  const monitors = await createMonitors(
    db,
    s.workspaceId,
    Array.from({ length: BATCH }, (_, i) => ({
      kind: "tcp",
      frequency: "30s",
      regions: ["iad"],
      request: { host: "127.0.0.1", port: 1000 + i },
    })),
    "operator",
  );
  let slot = Date.UTC(2026, 0, 1);
  const batch = () => {
    slot += 30_000;
    return monitors.map((m) => ({
      id: ulid(),
      monitorId: m.id,
      cronTimestamp: slot,
      startedAt: slot + 3,
      status: "success",
      latencyMs: 4.2,
      statusCode: 200,
      attempts: 1,
    }));
  };

  // Baseline: the same rows inserted straight into sqld's result table, one multi-row INSERT per batch.
  const raw = async () => {
    const rows = batch().map((r) => ({
      workspaceId: s.workspaceId,
      monitorId: r.monitorId,
      cronTimestamp: r.cronTimestamp,
      locationId: 999,
      status: "success" as const,
      latencyMs: 4,
      startOffsetMs: r.startedAt - r.cronTimestamp,
      statusCode: 200,
      attempts: 1,
    }));
    // Through the same one-writer-per-process queue as the server, so concurrent inserts wait their turn.
    await writeBatch(db, [db.insert(checkResultRow).values(rows)]);
  };
  const post = async () => {
    const res = await fetch(`${s.url}/v1/probe/results`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ results: batch() }),
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    await res.json();
  };
  const rate = async (fn: () => Promise<void>) => {
    for (let i = 0; i < 10; i++) await fn(); // warm-up
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < BATCHES) await fn();
      }),
    );
    return (BATCHES * BATCH) / ((performance.now() - t0) / 1000);
  };
  const baseline = await rate(raw);
  const ours = await rate(post);
  await s.close();
  return {
    title: "Ingest (server → sqld)",
    rows: [
      {
        metric: `results/s, POST batches of ${BATCH}, ${CONCURRENCY} in flight`,
        unit: "results/s",
        value: ours,
        baseline,
        baselineName: "raw multi-row INSERT",
        goal: "≥ 5,000 results/s",
        met: ours >= 5000,
      },
    ],
    notes: [
      `${BATCHES} batches each; ingest validates every field, dedupes on id and slot, updates per-location status and queues evaluation (BullMQ on the local Redis).`,
    ],
  };
}
