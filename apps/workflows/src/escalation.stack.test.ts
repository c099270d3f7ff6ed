// Reminders, escalation, acknowledgement and dependencies on a real workflows process, sqld, Redis and loopback receivers.
import {
  acknowledgeAlert,
  acknowledgeByLink,
  createChannel,
  createEscalationPolicy,
  createMonitor,
  describeAckLink,
  heldAlert,
  listAuditLog,
  updateMonitor,
} from "@vigil/core";
import { generateSecretKey, incident, notificationDelivery } from "@vigil/db-schema";
import { startTestDatabase } from "@vigil/db-schema/testing";
import { WebhookPayload } from "@vigil/notifier";
import { createRedis, ProbeBus } from "@vigil/queue";
import { afterEach, describe, expect, it } from "vitest";
import { ingest, producerFor, Receiver, seed, until, WorkflowsProcess, workflowsEnv } from "./test-harness";

// Reminders under 5 minutes are refused outside tests; these run them every 2 s.
process.env.VIGIL_MIN_REMIND_MS = "1000";
process.env.VIGIL_SECRET_KEY ||= generateSecretKey();

const REDIS = "redis://127.0.0.1:6379";
const base = Date.UTC(2026, 10, 22, 9);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver() {
  const r = new Receiver();
  await r.start();
  cleanups.push(() => r.stop());
  return r;
}

async function setup(n: number) {
  const t = await startTestDatabase();
  const hook = await receiver();
  const env = await workflowsEnv(t.url, REDIS, { ALERT_TICK_MS: "250", VIGIL_SECRET_KEY: process.env.VIGIL_SECRET_KEY! });
  const wf = new WorkflowsProcess(env);
  const { producer, close } = producerFor(REDIS, env.QUEUE_PREFIX);
  cleanups.push(
    () => t.close(),
    () => wf.kill(),
    close,
  );
  const seeded = await seed(t, n, hook.url());
  wf.start();
  await wf.waitHealthy();
  const down = (ids: number[], at = base) =>
    ingest(
      t,
      producer,
      seeded.location,
      ids.map((monitorId) => ({ monitorId, cronTimestamp: at, status: "error" as const, errorMessage: "connection refused" })),
    );
  const up = (ids: number[], at: number) =>
    ingest(
      t,
      producer,
      seeded.location,
      ids.map((monitorId) => ({ monitorId, cronTimestamp: at, status: "success" as const })),
    );
  return { t, hook, wf, down, up, prefix: env.QUEUE_PREFIX, ...seeded };
}

/** A channel (webhook to its own receiver) linked to no monitor: only escalation reaches it. */
async function escalationChannel(s: Awaited<ReturnType<typeof setup>>, name: string) {
  const r = await receiver();
  await createChannel(s.t.db, s.ws, { name, kind: "webhook", config: { url: r.url() } }, "u");
  return r;
}

/** One monitor with the escalation policy "ladder": step i after `afterMinutes[i]`, to its own channel and receiver. */
async function ladder(afterMinutes: number[], names = afterMinutes.map((_, i) => `step ${i}`)) {
  const s = await setup(1);
  const steps: Receiver[] = [];
  for (const name of names) steps.push(await escalationChannel(s, name));
  await createEscalationPolicy(
    s.t.db,
    s.ws,
    { name: "ladder", steps: afterMinutes.map((m, i) => ({ afterMinutes: m, channels: [names[i]!] })) },
    "u",
  );
  await updateMonitor(s.t.db, s.ws, s.monitors[0]!, { escalationPolicy: "ladder" }, "u");
  return { s, id: s.monitors[0]!, steps };
}

describe("reminders", () => {
  it("a monitor that stays down reminds its channel every interval with the spec's payload, and stops once acknowledged", {
    timeout: 90_000,
  }, async () => {
    const s = await setup(1);
    const id = s.monitors[0]!;
    await updateMonitor(s.t.db, s.ws, id, { remindEvery: 2000 }, "u");
    await s.down([id]);
    await until("first alert and two reminders", () => s.hook.received.length >= 3, 30_000);
    const [first, ...reminders] = s.hook.received;
    // Every copy is the spec's error payload, field for field; the link and the reminder live in headers.
    for (const r of s.hook.received) {
      expect(WebhookPayload.parse(r.body)).toEqual(r.body);
      expect(r.body).toEqual(first!.body);
      expect(r.headers["x-vigil-event"]).toBe("error");
      expect(String(r.headers["x-vigil-ack-url"])).toMatch(/^http:\/\/127\.0\.0\.1:3002\/ack\/[\w-]+\.[\w-]+\.[\w-]+$/);
    }
    // Each reminder is its own delivery: receivers deduplicating on the key still see it.
    expect(new Set(s.hook.received.map((r) => r.headers["idempotency-key"])).size).toBe(s.hook.received.length);
    expect(reminders[1]!.at - reminders[0]!.at).toBeGreaterThan(1500);

    const ack = await acknowledgeAlert(s.t.db, s.ws, { monitorId: id }, "user:7", "api");
    expect(ack).toMatchObject({ monitorId: id, actor: "user:7", via: "api", created: true });
    const after = s.hook.received.length;
    await sleep(5000);
    expect(s.hook.received.length).toBeLessThanOrEqual(after + 1); // at most one already in flight
    const [inc] = await s.t.db.select().from(incident);
    expect(inc).toMatchObject({ acknowledgedBy: "user:7" });
    expect((await listAuditLog(s.t.db, s.ws)).find((e) => e.action === "alert.acknowledge")).toMatchObject({ actor: "user:7" });
  });

  it("a reminder under the minimum is refused naming the field, and nothing is written", async () => {
    const t = await startTestDatabase();
    cleanups.push(() => t.close());
    const { ws } = await seed(t, 0, "http://127.0.0.1:9/hook");
    const bad = { kind: "tcp", frequency: "30s", regions: ["iad"], request: { host: "db.internal", port: 5432 }, remindEvery: "500ms" };
    await expect(createMonitor(t.db, ws, bad, "u")).rejects.toThrow(/remindEvery must be a duration|remindEvery must be at least/);
    delete process.env.VIGIL_MIN_REMIND_MS;
    try {
      await expect(createMonitor(t.db, ws, { ...bad, remindEvery: "4m" }, "u")).rejects.toThrow("remindEvery must be at least 5 minutes");
    } finally {
      process.env.VIGIL_MIN_REMIND_MS = "1000";
    }
  });
});

describe("escalation", () => {
  async function twoSteps() {
    const { s, id, steps } = await ladder([0, 0.1], ["first", "second"]);
    return { s, id, first: steps[0]!, second: steps[1]! };
  }

  it("an alert nobody acknowledges reaches the second step after its delay, and the recovery reaches both", {
    timeout: 90_000,
  }, async () => {
    const { s, first, second, id } = await twoSteps();
    const downAt = Date.now();
    await s.down([id]);
    await until("first step", () => first.received.length === 1, 20_000);
    expect(second.received).toHaveLength(0);
    await until("second step", () => second.received.length === 1, 30_000);
    expect(second.received[0]!.at - downAt).toBeGreaterThanOrEqual(6000);
    expect(second.received[0]!.body).toMatchObject({ status: "error", monitor: { id } });
    await s.up([id], base + 30_000);
    await until("recovery to both", () => first.received.length === 2 && second.received.length === 2, 20_000);
    expect([first.received[1]!.body.status, second.received[1]!.body.status]).toEqual(["recovered", "recovered"]);
    expect(first.received[1]!.headers["x-vigil-ack-url"]).toBeUndefined();
  });

  it("the acknowledge link in the first step's alert stops the second step; opening it alone acknowledges nothing", {
    timeout: 90_000,
  }, async () => {
    const { s, first, second, id } = await twoSteps();
    await s.down([id]);
    await until("first step", () => first.received.length === 1, 20_000);
    const url = String(first.received[0]!.headers["x-vigil-ack-url"]);
    const token = url.split("/ack/")[1]!;
    // What the confirm page shows on GET: a read, nothing acknowledged.
    expect(await describeAckLink(s.t.db, token)).toMatchObject({ open: true, acknowledged: null, channel: "first" });
    // A tampered token is refused.
    await expect(acknowledgeByLink(s.t.db, `${token.slice(0, -2)}xx`)).rejects.toThrow("not valid");
    const ack = await acknowledgeByLink(s.t.db, token);
    expect(ack).toMatchObject({ via: "link", actor: "link:first", monitorId: id });
    await sleep(9000);
    expect(second.received).toHaveLength(0);
    expect(first.received).toHaveLength(1);
  });
});

describe("dependencies", () => {
  it("a parent and 10 children going down together send one alert, the parent's; the children's show as suppressed, and alert once the parent is back", {
    timeout: 120_000,
  }, async () => {
    const s = await setup(11);
    const [parent, ...children] = s.monitors as [number, ...number[]];
    await updateMonitor(s.t.db, s.ws, parent, { name: "Router" }, "u");
    for (const c of children) await updateMonitor(s.t.db, s.ws, c, { dependsOn: [parent] }, "u");
    await s.down(s.monitors);
    await until("parent alert", () => s.hook.received.length >= 1, 20_000);
    await until(
      "10 suppressed",
      async () => (await s.t.db.select().from(notificationDelivery)).filter((d) => d.outcome === "suppressed").length === 10,
      20_000,
    );
    await sleep(3000);
    expect(s.hook.received.map((r) => (r.body.monitor as { id: number }).id)).toEqual([parent]);
    const suppressed = (await s.t.db.select().from(notificationDelivery)).filter((d) => d.outcome === "suppressed");
    expect(suppressed.every((d) => d.error === "suppressed: parent Router down")).toBe(true);

    // The parent recovers; the children's results of the same slot say they are still down: now they alert, once each.
    await s.up([parent], base + 30_000);
    await s.down(children, base + 30_000);
    await until("children alert", () => s.hook.received.length === 12, 30_000);
    await sleep(2000);
    const byMonitor = s.hook.received.map((r) => `${(r.body.monitor as { id: number }).id}:${r.body.status}`);
    expect(new Set(byMonitor).size).toBe(12);
    for (const c of children) expect(byMonitor).toContain(`${c}:error`);
  });

  it("a child failing before its parent's next check: the workflows ask a probe for the parent now, and its answer (down) holds the child", {
    timeout: 60_000,
  }, async () => {
    const s = await setup(2);
    const [parent, child] = s.monitors as [number, number];
    await updateMonitor(s.t.db, s.ws, parent, { name: "Router" }, "u");
    await updateMonitor(s.t.db, s.ws, child, { dependsOn: [parent] }, "u");
    await s.up([parent, child], base);
    // The probe: the real bus on the workflows' Redis prefix, answering the runs asked of its location.
    const redis = createRedis(REDIS, "producer");
    const sub = createRedis(REDIS, "subscriber");
    cleanups.push(() => {
      redis.disconnect();
      sub.disconnect();
    });
    const bus = new ProbeBus(redis, sub, s.prefix);
    await s.down([child], base + 10_000);
    let asked: { runId: string; monitorId: number } | undefined;
    await until(
      "a fresh check of the parent",
      async () => {
        asked = ((await bus.takeRuns(s.location.id)) as { runId: string; monitorId: number }[])[0] ?? asked;
        return asked !== undefined;
      },
      15_000,
    );
    expect(asked!.monitorId).toBe(parent);
    await bus.publishRunResult(asked!.runId, s.location.id, {
      status: "error",
      latencyMs: 3,
      attempts: 1,
      errorMessage: "connection refused",
    });
    await until("the child held", async () => (await heldAlert(s.t.db, s.ws, child))?.reason === "held: parent Router down", 15_000);
    await sleep(2000);
    expect(s.hook.received).toHaveLength(0);
    const log = await s.t.db.select().from(notificationDelivery);
    expect(log.map((d) => `${d.outcome}: ${d.error}`)).toEqual(["suppressed: suppressed: parent Router down"]);
  });

  it("a dependency cycle is refused naming the field, and nothing is written", async () => {
    const t = await startTestDatabase();
    cleanups.push(() => t.close());
    const { ws, monitors } = await seed(t, 3, "http://127.0.0.1:9/hook");
    const [a, b, c] = monitors as [number, number, number];
    await updateMonitor(t.db, ws, b, { dependsOn: [a] }, "u");
    await updateMonitor(t.db, ws, c, { dependsOn: [b] }, "u");
    await expect(updateMonitor(t.db, ws, a, { dependsOn: [c], name: "renamed" }, "u")).rejects.toThrow(
      "dependsOn would make a dependency cycle: m0 → m2 → m1 → m0",
    );
    await expect(updateMonitor(t.db, ws, a, { dependsOn: [a] }, "u")).rejects.toThrow("dependsOn.0 must not name the monitor itself");
    const { getMonitor } = await import("@vigil/core");
    expect(await getMonitor(t.db, ws, a)).toMatchObject({ name: "Monitor 0", dependsOn: [] });
  });
});

describe("escalation across a crash", () => {
  /** What reached a receiver (answered or not): a request sent twice shows twice, even if an answer was lost. */
  const statuses = (r: Receiver) => r.arrived.map((x) => x.body.status);

  it("workflows SIGKILLed in the middle of a 4-step escalation: every step arrives exactly once, and the recovery reaches each of them once", {
    timeout: 120_000,
  }, async () => {
    const { s, id, steps } = await ladder([0, 0.05, 0.1, 0.15]);
    await s.down([id]);
    await until("second step", () => steps[1]!.received.length === 1, 30_000);
    await s.wf.kill("SIGKILL");
    await sleep(4000); // steps 3 and 4 fall due while workflows is down
    s.wf.start();
    await s.wf.waitHealthy();
    await until("every step", () => steps.every((r) => r.received.length >= 1), 30_000);
    await sleep(3000);
    expect(steps.map(statuses)).toEqual([["error"], ["error"], ["error"], ["error"]]);
    expect(statuses(s.hook)).toEqual(["error"]);

    // The recovery goes to the monitor's own channel and to every step that was notified, once each.
    await s.up([id], base + 30_000);
    await until("recovery everywhere", () => [s.hook, ...steps].every((r) => r.received.length === 2), 30_000);
    await sleep(3000);
    for (const r of [s.hook, ...steps]) expect(statuses(r)).toEqual(["error", "recovered"]);
  });

  it("workflows SIGKILLed between the first and second step: the second arrives once, and an acknowledgement then stops the third", {
    timeout: 120_000,
  }, async () => {
    // The third step (36 s) leaves room for a slow restart before the acknowledgement.
    const { s, id, steps } = await ladder([0, 0.1, 0.6]);
    const [first, second, third] = steps as [Receiver, Receiver, Receiver];
    const downAt = Date.now();
    await s.down([id]);
    await until("first step", () => first.received.length === 1, 20_000);
    await s.wf.kill("SIGKILL");
    expect(second.arrived).toHaveLength(0);
    // The second step (6 s) falls due while workflows is dead.
    await sleep(Math.max(0, downAt + 8000 - Date.now()));
    s.wf.start();
    await s.wf.waitHealthy();
    await until("second step", () => second.received.length === 1, 20_000);
    await sleep(2000);
    expect(statuses(second)).toEqual(["error"]);

    await acknowledgeAlert(s.t.db, s.ws, { monitorId: id }, "user:7", "api");
    // The test means something only if the acknowledgement came before the third step was due.
    expect(Date.now() - downAt).toBeLessThan(36_000);
    // Well past the third step's 36 s.
    await sleep(Math.max(0, downAt + 42_000 - Date.now()));
    expect(third.arrived).toHaveLength(0);
    expect([statuses(first), statuses(second), statuses(s.hook)]).toEqual([["error"], ["error"], ["error"]]);

    await s.up([id], base + 30_000);
    await until("recovery", () => [s.hook, first, second].every((r) => r.received.length === 2), 20_000);
    await sleep(2000);
    for (const r of [s.hook, first, second]) expect(statuses(r)).toEqual(["error", "recovered"]);
    expect(third.arrived).toHaveLength(0);
  });

  it("an escalation step still retrying when the alert is acknowledged is not sent again, its log says why, and the recovery skips it", {
    timeout: 90_000,
  }, async () => {
    const { s, id, steps } = await ladder([0, 0.05]);
    const [first, second] = steps as [Receiver, Receiver];
    second.status = 503;
    await s.down([id]);
    await until("first step", () => first.received.length === 1, 20_000);
    const failed = async () =>
      (await s.t.db.select().from(notificationDelivery)).filter((d) => d.round > 0 && ["retrying", "error"].includes(d.outcome));
    await until("second step failing and retrying", async () => (await failed()).length >= 2, 20_000);

    await acknowledgeAlert(s.t.db, s.ws, { monitorId: id }, "user:7", "api");
    second.status = 200;
    await until(
      "the pending retry dropped",
      async () =>
        (await s.t.db.select().from(notificationDelivery)).some(
          (d) => d.outcome === "suppressed" && d.error === "not sent: the alert was acknowledged before this went out",
        ),
      20_000,
    );
    await sleep(3000);
    expect(second.arrived).toHaveLength(0);
    // Every attempt of the step is settled: none is left showing a retry as due.
    const stepRows = (await s.t.db.select().from(notificationDelivery)).filter((d) => d.round > 0 && d.outcome !== "sent");
    expect(stepRows.filter((d) => d.outcome === "retrying" || d.outcome === "sending")).toEqual([]);

    await s.up([id], base + 30_000);
    await until("recovery", () => [s.hook, first].every((r) => r.received.length === 2), 20_000);
    await sleep(2000);
    for (const r of [s.hook, first]) expect(statuses(r)).toEqual(["error", "recovered"]);
    expect(second.arrived).toHaveLength(0);
  });
});
