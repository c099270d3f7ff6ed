// Ingest: results per second through POST /v1/probe/results (batches of 100) against raw inserts into sqld.
import { readFileSync } from "node:fs";
import { createMonitors, createPrivateLocation } from "@vigil/core";
import { checkResultRow, writeBatch } from "@vigil/db-schema";
import { startTestServer } from "@vigil/server/testing";
import { ulid } from "ulid";
import type { BenchReport } from "./lib";

const BATCH = 100;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 300);
const ROUNDS = 2;
const CONCURRENCY = 4;

/** CPU time (ms) a process has used, from /proc: sqld is a child process of ours. */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

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
  const raw = (): (() => Promise<void>) => {
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
    return async () => {
      await writeBatch(db, [db.insert(checkResultRow).values(rows)]);
    };
  };
  const post = (): (() => Promise<void>) => {
    const body = JSON.stringify({ results: batch() });
    return async () => {
      const res = await fetch(`${s.url}/v1/probe/results`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      const out = (await res.json()) as { accepted: number };
      if (out.accepted !== BATCH) throw new Error(`ingest accepted ${out.accepted} of ${BATCH}`);
    };
  };
  const sqld = s.database.sqld.process.pid!;
  const totals = { raw: { ms: 0, cpu: 0, sqld: 0 }, post: { ms: 0, cpu: 0, sqld: 0 } };
  // Each side's batches are made before its clock starts (ids, rows, bodies: the probe's work, not the store's).
  const rate = async (side: keyof typeof totals, make: () => () => Promise<void>) => {
    for (let i = 0; i < 10; i++) await make()(); // warm-up
    const jobs = Array.from({ length: BATCHES }, make);
    const cpu0 = process.cpuUsage();
    const sqld0 = cpuMsOf(sqld);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length) await jobs[next++]!();
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    totals[side].ms += performance.now() - t0;
    totals[side].cpu += (cpu.user + cpu.system) / 1000;
    totals[side].sqld += cpuMsOf(sqld) - sqld0;
  };
  // Alternated, so a neighbour's load on the machine falls on both sides alike.
  for (let round = 0; round < ROUNDS; round++) {
    await rate("raw", raw);
    await rate("post", post);
  }
  await s.close();
  const n = ROUNDS * BATCHES * BATCH;
  const perSecond = (side: keyof typeof totals) => n / (totals[side].ms / 1000);
  const usPerResult = (ms: number) => `${((ms * 1000) / n).toFixed(0)} µs`;
  const ours = perSecond("post");
  const baseline = perSecond("raw");
  return {
    title: "Ingest (server → sqld)",
    rows: [
      {
        metric: `results/s, POST batches of ${BATCH}, ${CONCURRENCY} in flight`,
        unit: "results/s",
        value: ours,
        baseline,
        baselineName: "raw multi-row INSERT",
        goal: "≥ 5,000 results/s and ≥ 0.8 × raw",
        met: ours >= 5000 && ours >= 0.8 * baseline,
      },
    ],
    notes: [
      `${ROUNDS} rounds of ${BATCHES} batches each side, alternated; each batch made before the clock starts; ingest validates every field, dedupes on (monitor, slot, location), updates per-location status and queues evaluation (BullMQ on the local Redis).`,
      `CPU per result: ingest ${usPerResult(totals.post.cpu)} in the bench process (client and server) and ${usPerResult(totals.post.sqld)} in sqld; raw ${usPerResult(totals.raw.cpu)} and ${usPerResult(totals.raw.sqld)}.`,
    ],
  };
}
