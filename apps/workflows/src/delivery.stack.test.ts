import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMaintenance } from "@vigil/core";
import { notificationChannel, notificationDelivery, statusEvent } from "@vigil/db-schema";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { startTestRedis } from "@vigil/queue/testing";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { allMonitorsDown, ingest, type Receiver, startAlertStack, until } from "./test-harness";

const REDIS = "redis://127.0.0.1:6379";
const base = Date.UTC(2026, 10, 22, 9);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setup = (n: number, redisUrl = REDIS, extra: Record<string, string> = {}, hookAt?: (db: string) => string) =>
  startAlertStack(cleanups, n, redisUrl, extra, hookAt);

/** Copies per event among the answered requests (or every request that arrived). */
/** Every monitor reports an error at the same slot. */
const allDown = (s: Awaited<ReturnType<typeof setup>>) => allMonitorsDown(s, base);

/** One monitor goes down; returns the delivery log once its one failure is logged and 2 s passed without a retry. */
async function failedOnce(s: Awaited<ReturnType<typeof setup>>) {
  s.wf.start();
  await s.wf.waitHealthy();
  await ingest(s.t, s.producer, s.location, [{ monitorId: s.monitors[0]!, cronTimestamp: base, status: "error" }]);
  await until("failed delivery", async () => (await s.t.db.select().from(notificationDelivery)).length === 1);
  await new Promise((r) => setTimeout(r, 2000));
  return s.t.db.select().from(notificationDelivery);
}

const sentLog = async (t: TestDatabase) => (await t.db.select().from(notificationDelivery)).filter((d) => d.outcome === "sent");

const byEvent = (r: Receiver, of: "received" | "arrived" = "received") => {
  const counts = new Map<string, number>();
  for (const x of r[of]) {
    const key = `${(x.body.monitor as { id: number }).id}:${x.body.status}:${x.body.cronTimestamp}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

describe("alerts", () => {
  it("a monitor going down then up sends error once and recovered once, with exactly the spec's payload", async () => {
    const s = await setup(1);
    s.wf.start();
    await s.wf.waitHealthy();
    const id = s.monitors[0]!;
    await ingest(s.t, s.producer, s.location, [{ monitorId: id, cronTimestamp: base, status: "success" }]);
    await ingest(s.t, s.producer, s.location, [
      { monitorId: id, cronTimestamp: base + 30_000, status: "error", errorMessage: "connection refused" },
    ]);
    await until("error alert", () => s.receiver.received.length === 1);
    await ingest(s.t, s.producer, s.location, [
      { monitorId: id, cronTimestamp: base + 60_000, status: "error", errorMessage: "connection refused" },
    ]);
    await ingest(s.t, s.producer, s.location, [{ monitorId: id, cronTimestamp: base + 90_000, status: "success", latencyMs: 7 }]);
    await until("recovered alert", () => s.receiver.received.length === 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.receiver.received.map((r) => r.raw)).toEqual([
      `{"monitor":{"id":${id},"name":"Monitor 0","url":"db.internal:5432"},"cronTimestamp":${base + 30_000},"status":"error","latency":5,"errorMessage":"connection refused"}`,
      `{"monitor":{"id":${id},"name":"Monitor 0","url":"db.internal:5432"},"cronTimestamp":${base + 90_000},"status":"recovered","latency":7}`,
    ]);
    const log = await s.t.db.select().from(notificationDelivery);
    expect(log.map((d) => [d.outcome, d.attempt, d.responseCode])).toEqual([
      ["sent", 1, 200],
      ["sent", 1, 200],
    ]);
  });

  it("1,000 monitors going down in one window, then back up: each alert and each recovery arrives once, queued by the evaluation that raised it (none left for the sweep)", {
    timeout: 300_000,
  }, async () => {
    const s = await setup(1000);
    s.wf.start();
    await s.wf.waitHealthy();
    for (const [status, at, total] of [
      ["error", base, 1000],
      ["success", base + 30_000, 2000],
    ] as const) {
      // As a probe's outbox sends them: 500 results a batch.
      for (let i = 0; i < s.monitors.length; i += 500)
        await ingest(
          s.t,
          s.producer,
          s.location,
          s.monitors.slice(i, i + 500).map((monitorId) => ({ monitorId, cronTimestamp: at, status, errorMessage: "down" })),
        );
      await until(`${total} alerts`, () => s.receiver.received.length >= total, 120_000);
    }
    const counts = byEvent(s.receiver);
    expect(counts.size).toBe(2000);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    const events = await s.t.db.select().from(statusEvent);
    expect(events).toHaveLength(2000);
    // The sweep takes only events stranded for 10 s: every one here went out from its own evaluation.
    expect(events.filter((e) => e.dispatchedAt === null || e.dispatchedAt - e.createdAt >= 10_000).map((e) => e.id)).toEqual([]);
    expect(await sentLog(s.t)).toHaveLength(2000);
  });

  it("a burst of alerts keeps at most NOTIFY_CONCURRENCY requests open at a receiver, and each alert arrives once", async () => {
    const s = await setup(40, REDIS, { NOTIFY_CONCURRENCY: "8" });
    s.receiver.answerBudget = 0; // every request stays open until released
    s.wf.start();
    await s.wf.waitHealthy();
    await allDown(s);
    await until("8 requests open", () => s.receiver.heldCount === 8);
    let most = 0;
    for (const end = Date.now() + 1000; Date.now() < end; await new Promise((r) => setTimeout(r, 10)))
      most = Math.max(most, s.receiver.heldCount);
    expect(most).toBe(8);
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    s.receiver.releaseHeld();
    await until("40 alerts", () => s.receiver.received.length === 40);
    expect([...byEvent(s.receiver).values()].filter((n) => n !== 1)).toEqual([]);
  });

  it("workflows killed in the middle of deliveries and restarted: every alert arrives once", { timeout: 120_000 }, async () => {
    const n = 24;
    const s = await setup(n);
    s.receiver.answerBudget = 8;
    s.wf.start();
    await s.wf.waitHealthy();
    await allDown(s);
    // Eight delivered and logged, more in flight and held by the receiver: kill now.
    await until("8 deliveries logged", async () => (await sentLog(s.t)).length === 8);
    await until("deliveries in flight", () => s.receiver.heldCount > 0);
    await s.wf.kill("SIGKILL");
    s.receiver.dropHeld();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    s.wf.start();
    await until("all alerts", () => s.receiver.received.length >= n, 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    const counts = byEvent(s.receiver);
    expect(counts.size).toBe(n);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(s.receiver.received).toHaveLength(n);
  });

  it("a receiver that got an alert but whose answer was lost in a crash gets at most one copy, with the same idempotency key", {
    timeout: 120_000,
  }, async () => {
    const n = 6;
    const s = await setup(n);
    s.receiver.answerBudget = 0;
    s.wf.start();
    await s.wf.waitHealthy();
    await allDown(s);
    // The receiver has read the alerts and is about to answer when workflows dies.
    await until("alerts arrived, answers held", () => s.receiver.heldCount > 0);
    await s.wf.kill("SIGKILL");
    s.receiver.dropHeld();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    s.wf.start();
    await until("every alert answered", () => byEvent(s.receiver).size === n, 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    const copies = new Map<string, Set<string>>();
    for (const a of s.receiver.arrived) {
      const event = `${(a.body.monitor as { id: number }).id}:${a.body.status}`;
      const keys = copies.get(event) ?? new Set();
      keys.add(String(a.headers["idempotency-key"]));
      copies.set(event, keys);
      expect(a.headers["x-vigil-delivery"]).toBe(a.headers["idempotency-key"]);
      expect(Object.keys(a.body).sort()).toEqual(["cronTimestamp", "errorMessage", "latency", "monitor", "status"]);
    }
    expect(copies.size).toBe(n);
    // One key per event (every copy carries it), a different key for each event.
    expect([...copies.values()].every((k) => k.size === 1)).toBe(true);
    expect(new Set([...copies.values()].flatMap((k) => [...k])).size).toBe(n);
    // At most one extra delivery per event: the one whose answer the crash lost.
    const perEvent = new Map<string, number>();
    for (const a of s.receiver.arrived) {
      const event = `${(a.body.monitor as { id: number }).id}`;
      perEvent.set(event, (perEvent.get(event) ?? 0) + 1);
    }
    expect([...perEvent.values()].every((c) => c <= 2)).toBe(true);
    expect([...byEvent(s.receiver).values()].every((c) => c === 1)).toBe(true);
  });

  it("an alert answered while the database restarts is delivered once and logged as sent", { timeout: 120_000 }, async () => {
    const n = 4;
    const s = await setup(n);
    s.receiver.answerBudget = 0;
    s.wf.start();
    await s.wf.waitHealthy();
    await allDown(s);
    await until("alerts arrived, answers held", () => s.receiver.heldCount === n);
    // The receivers accept the alerts just after the database went away: the "sent" records cannot be written yet.
    await s.t.sqld.stop();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    s.receiver.releaseHeld();
    await until("alerts answered", () => s.receiver.received.length === n);
    await new Promise((r) => setTimeout(r, 1500));
    await s.t.restart();
    await until("deliveries logged", async () => (await sentLog(s.t)).length >= n, 60_000);
    // Long enough for a retried job to send a copy.
    await new Promise((r) => setTimeout(r, 5000));
    expect([...byEvent(s.receiver, "arrived").values()]).toEqual(Array(n).fill(1));
    const logged = (await sentLog(s.t)).map((d) => d.eventId);
    expect(logged).toHaveLength(n);
    expect(new Set(logged).size).toBe(n);
  });

  it("workflows stopped while a delivered alert waits for the database to log it exits without sending it again", {
    timeout: 120_000,
  }, async () => {
    const s = await setup(1);
    s.receiver.answerBudget = 0;
    s.wf.start();
    await s.wf.waitHealthy();
    await allDown(s);
    await until("alert arrived, answer held", () => s.receiver.heldCount === 1);
    await s.t.sqld.stop();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    s.receiver.releaseHeld();
    await until("alert answered", () => s.receiver.received.length === 1);
    await new Promise((r) => setTimeout(r, 1000));
    await s.wf.kill("SIGTERM");
    expect(s.wf.child!.exitCode).toBe(0);
    await s.t.restart();
    s.wf.start();
    await s.wf.waitHealthy();
    // Past the lock of a job left behind, and the retry that would send it again.
    await new Promise((r) => setTimeout(r, 5000));
    expect(s.receiver.arrived).toHaveLength(1);
    expect(s.wf.output).toContain("alert delivered but not recorded in the delivery log");
  });

  it("a monitor going down in a maintenance window sends nothing and logs the event suppressed, once", async () => {
    const s = await setup(1);
    const id = s.monitors[0]!;
    await createMaintenance(
      s.t.db,
      s.ws,
      { title: "upgrade", startsAt: base - 60_000, endsAt: Date.now() + 3_600_000, monitors: [id] },
      "u",
    );
    s.wf.start();
    await s.wf.waitHealthy();
    await ingest(s.t, s.producer, s.location, [{ monitorId: id, cronTimestamp: base, status: "error" }]);
    await until("event dispatched", async () => (await s.t.db.select().from(statusEvent)).some((e) => e.dispatchedAt !== null));
    // Any alert would have arrived by now.
    await new Promise((r) => setTimeout(r, 1500));
    const log = await s.t.db.select().from(notificationDelivery);
    expect(log.map((d) => [d.outcome, d.attempt, d.error])).toEqual([["suppressed", 0, "maintenance window"]]);
    expect(s.receiver.arrived).toEqual([]);
  });

  it("a receiver down for 30 s gets the alert after it returns, and the channel is not marked failing", { timeout: 120_000 }, async () => {
    const s = await setup(1);
    const port = s.receiver.port;
    await s.receiver.stop();
    s.wf.start();
    await s.wf.waitHealthy();
    await ingest(s.t, s.producer, s.location, [{ monitorId: s.monitors[0]!, cronTimestamp: base, status: "error", errorMessage: "down" }]);
    await until("a failed attempt", async () => (await s.t.db.select().from(notificationDelivery)).some((d) => d.outcome === "retrying"));
    await new Promise((r) => setTimeout(r, 30_000));
    expect(s.receiver.received).toHaveLength(0);
    await s.receiver.start(port);
    await until("delivery after return", () => s.receiver.received.length === 1, 60_000, 200);
    // The receiver has its answer before the worker logs it.
    await until("delivery logged", async () => (await sentLog(s.t)).length === 1);
    const log = await s.t.db.select().from(notificationDelivery);
    // One row per attempt, numbered in order; the failed ones say why and announce no retry any more.
    expect(log.map((d) => d.attempt)).toEqual(log.map((_, i) => i + 1));
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect(log.slice(0, -1).every((d) => d.outcome === "error" && d.nextRetryAt === null && d.error?.startsWith("network error"))).toBe(
      true,
    );
    expect(log.at(-1)).toMatchObject({ outcome: "sent", nextRetryAt: null });
    const [ch] = await s.t.db.select().from(notificationChannel);
    expect(ch!.failingSince).toBeNull();
  });

  it("a permanent refusal (400) is not retried and marks the channel failing", async () => {
    const s = await setup(1);
    s.receiver.status = 400;
    const log = await failedOnce(s);
    expect(log.map((d) => [d.outcome, d.responseCode])).toEqual([["failed", 400]]);
    const [ch] = await s.t.db.select().from(notificationChannel).where(eq(notificationChannel.id, log[0]!.channelId));
    expect(ch!.failingSince).not.toBeNull();
  });

  it("an alert to a webhook aimed at the instance's database is refused once, not retried, and logged with the reason", async () => {
    const s = await setup(1, REDIS, {}, (db) => `${db.replace("127.0.0.1", "localhost")}/`);
    const log = await failedOnce(s);
    expect(log.map((d) => [d.outcome, d.error])).toEqual([
      ["failed", `target localhost:${new URL(s.t.url).port} (127.0.0.1) is this instance's database; refused`],
    ]);
  });

  it("results stored while Redis is down are evaluated once it returns, and a restarted append-only Redis loses nothing", {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-redis-"));
    const redis = await startTestRedis(dir);
    cleanups.push(
      () => redis.stop(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const s = await setup(6, redis.url);
    s.wf.start();
    await s.wf.waitHealthy();
    // Half the monitors go down while Redis is away: the results are stored but nothing is queued.
    await redis.stop();
    await ingest(
      s.t,
      s.producer,
      s.location,
      s.monitors.slice(0, 3).map((monitorId) => ({ monitorId, cronTimestamp: base, status: "error" as const })),
    );
    await redis.start();
    await until("alerts for results stored while Redis was down", () => s.receiver.received.length === 3, 60_000);
    // The rest go down, and Redis restarts in the middle of their deliveries.
    s.receiver.answerBudget = 1;
    await ingest(
      s.t,
      s.producer,
      s.location,
      s.monitors.slice(3).map((monitorId) => ({ monitorId, cronTimestamp: base, status: "error" as const })),
    );
    await until("deliveries held", () => s.receiver.heldCount > 0 || s.receiver.received.length === 6);
    await redis.stop();
    s.receiver.dropHeld();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    await redis.start();
    await until("every alert", () => s.receiver.received.length >= 6, 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    expect([...byEvent(s.receiver).values()]).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
