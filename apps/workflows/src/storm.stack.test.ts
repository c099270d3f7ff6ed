// Deliveries that never storm: a slow receiver, a killed worker, backoff that spreads out.
import { notificationDelivery } from "@vigil/db-schema";
import { afterEach, describe, expect, it } from "vitest";
import { retryDelay } from "./notify/backoff";
import { allMonitorsDown, type Receiver, startAlertStack, until } from "./test-harness";

const REDIS = "redis://127.0.0.1:6379";
const base = Date.UTC(2026, 10, 25, 9);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(n: number, extra: Record<string, string> = {}) {
  const s = await startAlertStack(cleanups, n, REDIS, extra);
  return { ...s, allDown: () => allMonitorsDown(s, base) };
}

const perMonitor = (r: Receiver) => {
  const n = new Map<number, number>();
  for (const a of r.arrived) n.set((a.body.monitor as { id: number }).id, (n.get((a.body.monitor as { id: number }).id) ?? 0) + 1);
  return n;
};

describe("deliveries that never storm", () => {
  it("a receiver that answers in 20 s gets each alert once (at most twice), and the log shows one attempt, sent", {
    timeout: 120_000,
  }, async () => {
    const s = await setup(3);
    s.receiver.delayMs = 20_000;
    s.wf.start();
    await s.wf.waitHealthy();
    await s.allDown();
    await until("the late answers", () => s.receiver.received.length === 3, 60_000, 200);
    // Long enough for any resend the timeout (10 s) or a retry would cause to arrive.
    await new Promise((r) => setTimeout(r, 12_000));
    const counts = [...perMonitor(s.receiver).values()];
    expect(counts).toHaveLength(3);
    expect(counts.every((c) => c <= 2)).toBe(true);
    expect(counts).toEqual([1, 1, 1]);
    const log = await s.t.db.select().from(notificationDelivery);
    expect(log.map((d) => [d.attempt, d.outcome, d.responseCode, d.nextRetryAt])).toEqual([
      [1, "sent", 200, null],
      [1, "sent", 200, null],
      [1, "sent", 200, null],
    ]);
    // Answered about 20 s after the attempt began, past the channel's 10 s timeout.
    for (const d of log) expect(d.finishedAt! - d.createdAt).toBeGreaterThanOrEqual(19_000);
  });

  it("while the receiver is slow the attempt says it is still waiting, not that it failed", { timeout: 60_000 }, async () => {
    const s = await setup(1, {});
    s.receiver.delayMs = 14_000;
    s.wf.start();
    await s.wf.waitHealthy();
    await s.allDown();
    await until(
      "the attempt noted as slow",
      async () =>
        (await s.t.db.select().from(notificationDelivery)).some((d) => d.outcome === "sending" && d.error?.includes("still waiting")),
      20_000,
      200,
    );
    await until("the late answer", () => s.receiver.received.length === 1, 20_000, 200);
    await until("logged as sent", async () => (await s.t.db.select().from(notificationDelivery)).every((d) => d.outcome === "sent"));
    expect(s.receiver.arrived).toHaveLength(1);
  });

  it("workflows SIGKILLed with deliveries in flight: they resume within 5 s of the restart, each alert arrives, one log row per attempt", {
    timeout: 120_000,
  }, async () => {
    const n = 6;
    const s = await setup(n);
    s.receiver.answerBudget = 0;
    s.wf.start();
    await s.wf.waitHealthy();
    await s.allDown();
    await until("deliveries in flight", () => s.receiver.heldCount === n);
    await s.wf.kill("SIGKILL");
    s.receiver.dropHeld();
    s.receiver.answerBudget = Number.POSITIVE_INFINITY;
    const before = s.receiver.arrived.length;
    s.wf.start();
    await s.wf.waitHealthy();
    const restarted = Date.now();
    await until("every alert again", () => s.receiver.received.length === n, 30_000, 50);
    const resumed = Math.max(...s.receiver.received.map((r) => r.at)) - restarted;
    expect(resumed).toBeLessThanOrEqual(5_000);
    expect(s.receiver.arrived.length - before).toBe(n);
    await until(
      "every attempt logged",
      async () => (await s.t.db.select().from(notificationDelivery)).filter((d) => d.outcome === "sent").length === n,
    );
    const log = await s.t.db.select().from(notificationDelivery);
    // The attempt the kill cut off says so; the one after the restart was sent. No row is left "sending".
    expect(log.filter((d) => d.outcome === "error").map((d) => [d.attempt, d.error])).toEqual(
      Array(n).fill([1, "stopped before the answer came (workflows restarted)"]),
    );
    expect(log.filter((d) => d.outcome === "sent").map((d) => d.attempt)).toEqual(Array(n).fill(2));
    expect(log).toHaveLength(2 * n);
  });

  it("retries back off exponentially with jitter up to a cap, the same for the queue and the log", () => {
    const delays = Array.from({ length: 12 }, (_, i) => retryDelay("7-3", i + 1, 2000, 600_000));
    delays.forEach((d, i) => {
      const full = Math.min(600_000, 2000 * 2 ** i);
      expect(d).toBeGreaterThanOrEqual(full / 2);
      expect(d).toBeLessThanOrEqual(full);
    });
    expect(retryDelay("7-3", 5, 2000, 600_000)).toBe(delays[4]);
    // Deliveries failing together spread out instead of coming back at the same instant.
    const sameAttempt = new Set(Array.from({ length: 50 }, (_, i) => retryDelay(`${i}-1`, 3, 2000, 600_000)));
    expect(sameAttempt.size).toBeGreaterThan(40);
  });
});
