import { nextCronTime } from "@vigil/api-contract";
import { heartbeat, heartbeatPing, statusEvent } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  combineReceivers,
  createMonitor,
  createWorkspace,
  decideHeartbeat,
  evaluateHeartbeats,
  heartbeatDetails,
  markReceiverAlive,
  PingWriter,
  recordPing,
  setLimits,
} from "../index";

describe("cron heartbeats across a DST change", () => {
  it("*/1 * * * * in Europe/Berlin expects every minute, on both sides of the spring jump", () => {
    let t = Date.parse("2026-03-29T00:57:30Z"); // 01:57:30 CET; at 01:00Z clocks jump to 03:00 CEST
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      t = nextCronTime("*/1 * * * *", "Europe/Berlin", t);
      seen.push(new Date(t).toISOString());
    }
    expect(seen).toEqual([
      "2026-03-29T00:58:00.000Z",
      "2026-03-29T00:59:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-29T01:01:00.000Z",
      "2026-03-29T01:02:00.000Z",
    ]);
  });
  it("a daily 02:30 in Europe/Berlin runs once on the autumn night whose 02:30 happens twice", () => {
    const first = nextCronTime("30 2 * * *", "Europe/Berlin", Date.parse("2026-10-24T12:00:00Z"));
    const second = nextCronTime("30 2 * * *", "Europe/Berlin", first);
    expect(new Date(first).toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(new Date(second).toISOString()).toBe("2026-10-26T01:30:00.000Z");
  });
});

describe("two ping servers behind a load balancer", () => {
  const t0 = Date.UTC(2026, 10, 27, 12);
  const state = {
    monitorId: 1,
    workspaceId: 1,
    status: "active" as const,
    statusCron: null,
    version: 1,
    schedule: { periodMs: 60_000, graceMs: 10_000 },
    lastPingId: 5,
    lastPingAt: t0,
    startedAt: null,
    deadlineAt: t0 + 70_000,
    evaluatedPingId: 5,
    monitorVersion: 1,
    rearmedAt: null,
    last: null,
    maintenances: [],
  };
  const now = t0 + 71_000;

  it("a missed deadline alerts only once every live server vouches past it, and a dead server's row stops counting", () => {
    const fast = { upSince: t0 - 3_600_000, aliveAt: now - 500 };
    // The other server still holds a ping from before the deadline: nothing is decided yet.
    const holding = { upSince: t0 - 3_600_000, aliveAt: t0 + 69_500 };
    expect(decideHeartbeat(state, combineReceivers([fast, holding], now), now).event).toBeNull();
    // Once it has stored it (or has been gone longer than the stale bound), the silence is real.
    expect(decideHeartbeat(state, combineReceivers([fast, { ...holding, aliveAt: now - 400 }], now), now).event?.change).toBe("error");
    const gone = { upSince: t0 - 3_600_000, aliveAt: now - 60_000 };
    expect(combineReceivers([fast, gone], now)).toEqual(fast);
    expect(combineReceivers([gone], now)).toBeNull();
  });

  it("a deadline is re-armed only when no server was up when the ping was due, not when one of two restarted", () => {
    const steady = { upSince: t0 - 3_600_000, aliveAt: now - 500 };
    const restarted = { upSince: now - 5_000, aliveAt: now - 500 };
    expect(decideHeartbeat(state, combineReceivers([steady, restarted], now), now).event?.change).toBe("error");
    const both = decideHeartbeat(state, combineReceivers([restarted, { ...restarted, upSince: now - 4_000 }], now), now);
    expect(both.event).toBeNull();
    expect(both.rearmedAt).toBe(now - 5_000 + 70_000);
  });
});

describe("a heartbeat's pings and deadline", () => {
  let t: TestDatabase;
  let ws: number;
  beforeAll(async () => {
    t = await startTestDatabase();
    ws = (await createWorkspace(t.db, { name: "hb" }, "operator")).id;
    await setLimits(t.db, ws, "unlimited", "operator");
  }, 60_000);
  afterAll(async () => t?.close());

  it("a job that stops pinging is down after period + grace, once, and its next success recovers with the run's duration", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "backup", request: { period: "2s", grace: "1s" } }, "operator");
    const { pingUrl } = await heartbeatDetails(t.db, ws, m.id);
    const token = pingUrl.split("/ping/")[1]!;
    const ping = (at: number, signal: Parameters<typeof recordPing>[1]["signal"] = { kind: "success" }) =>
      recordPing(t.db, { to: { token }, signal, at, sourceIp: "127.0.0.1", userAgent: "curl", body: null });
    const t0 = Date.now();
    expect(await ping(t0)).toBe(true);
    expect(
      await recordPing(t.db, {
        to: { token: "x".repeat(32) },
        signal: { kind: "success" },
        at: t0,
        sourceIp: null,
        userAgent: null,
        body: null,
      }),
    ).toBe(false);
    await markReceiverAlive(t.db, t0 - 60_000, t0);
    expect(await evaluateHeartbeats(t.db, t0)).toEqual([]);
    const [h] = await t.db.select().from(heartbeat).where(eq(heartbeat.monitorId, m.id));
    expect(h!.deadlineAt).toBe(t0 + 3000);
    // Not yet proven that the ping server was up after the deadline: no alert.
    expect(await evaluateHeartbeats(t.db, t0 + 3500)).toEqual([]);
    await markReceiverAlive(t.db, t0 - 60_000, t0 + 3600);
    const down = await evaluateHeartbeats(t.db, t0 + 3700);
    expect(down.map((e) => e.status)).toEqual(["error"]);
    expect(await evaluateHeartbeats(t.db, t0 + 5000)).toEqual([]);
    expect(await ping(t0 + 6000, { kind: "start" })).toBe(true);
    expect(await ping(t0 + 6400)).toBe(true);
    const up = await evaluateHeartbeats(t.db, t0 + 6500);
    expect(up.map((e) => e.status)).toEqual(["recovered"]);
    const events = await t.db.select().from(statusEvent).where(eq(statusEvent.monitorId, m.id)).orderBy(statusEvent.id);
    expect(events.map((e) => [e.status, e.errorMessage, e.latencyMs])).toEqual([
      ["error", `no ping since ${new Date(t0).toISOString().replace(/\.\d{3}Z$/, "Z")}`, null],
      ["recovered", null, 400],
    ]);
  });

  it("pings that arrive between two passes recover the heartbeat at the first of them: the outage lasts as long as the job was late", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "late-pass", request: { period: "60s", grace: "30s" } }, "operator");
    const { pingUrl } = await heartbeatDetails(t.db, ws, m.id);
    const token = pingUrl.split("/ping/")[1]!;
    const ping = (at: number) =>
      recordPing(t.db, { to: { token }, signal: { kind: "success" }, at, sourceIp: "127.0.0.1", userAgent: "curl", body: null });
    const t0 = Date.now();
    await ping(t0);
    await markReceiverAlive(t.db, t0 - 60_000, t0);
    await evaluateHeartbeats(t.db, t0);
    await markReceiverAlive(t.db, t0 - 60_000, t0 + 95_000);
    // Other tests' heartbeats share the database: only this one's events count.
    const own = (events: Awaited<ReturnType<typeof evaluateHeartbeats>>) =>
      events.filter((e) => e.monitorId === m.id).map((e) => [e.status, e.cronTimestamp]);
    expect(own(await evaluateHeartbeats(t.db, t0 + 95_000))).toEqual([["error", t0 + 90_000]]);
    // The job is back at +120 s and pings again at +180 s before the workflows' next pass (they were busy).
    await ping(t0 + 120_000);
    await ping(t0 + 180_000);
    expect(own(await evaluateHeartbeats(t.db, t0 + 181_000))).toEqual([["recovered", t0 + 120_000]]);
  });

  it("its page tells when the next ping is due and when it goes down from the first ping on, and still after the miss", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "report", request: { period: "1m", grace: "30s" } }, "operator");
    const token = (await heartbeatDetails(t.db, ws, m.id)).pingUrl.split("/ping/")[1]!;
    const fresh = await heartbeatDetails(t.db, ws, m.id);
    expect([fresh.state, fresh.nextExpectedAt, fresh.deadlineAt]).toEqual(["new", null, null]);
    const t0 = Date.now() + 300_000;
    await recordPing(t.db, { to: { token }, signal: { kind: "success" }, at: t0, sourceIp: null, userAgent: null, body: null });
    // Before workflows looked at the ping: the facts already follow from it.
    const pinged = await heartbeatDetails(t.db, ws, m.id, { nowMs: t0 + 1000 });
    expect([pinged.state, pinged.nextExpectedAt, pinged.deadlineAt]).toEqual(["up", t0 + 60_000, t0 + 90_000]);
    expect((await heartbeatDetails(t.db, ws, m.id, { nowMs: t0 + 61_000 })).state).toBe("late");
    await evaluateHeartbeats(t.db, t0 + 1000);
    await markReceiverAlive(t.db, t0 - 60_000, t0 + 91_000);
    expect((await evaluateHeartbeats(t.db, t0 + 91_500)).map((e) => e.status)).toEqual(["error"]);
    // The miss is recorded (the stored deadline is cleared): the page still says when it was due and went down.
    const down = await heartbeatDetails(t.db, ws, m.id, { nowMs: t0 + 92_000 });
    expect([down.state, down.nextExpectedAt, down.deadlineAt]).toEqual(["down", t0 + 60_000, t0 + 90_000]);
  });

  it("a started run is expected to finish by its grace, not shown late from its start", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "long job", request: { period: "1h", grace: "10m" } }, "operator");
    const token = (await heartbeatDetails(t.db, ws, m.id)).pingUrl.split("/ping/")[1]!;
    const t0 = Date.now() + 400_000;
    await recordPing(t.db, { to: { token }, signal: { kind: "start" }, at: t0, sourceIp: null, userAgent: null, body: null });
    const run = await heartbeatDetails(t.db, ws, m.id, { nowMs: t0 + 60_000 });
    expect([run.state, run.startedAt, run.nextExpectedAt, run.deadlineAt]).toEqual(["running", t0, t0 + 600_000, t0 + 600_000]);
  });

  it("a run started before any pass saw its new heartbeat must still finish within its grace, not a period later", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "nightly", request: { period: "1h", grace: "2s" } }, "operator");
    const token = (await heartbeatDetails(t.db, ws, m.id)).pingUrl.split("/ping/")[1]!;
    const t0 = Date.now() + 200_000;
    // The job starts at once: the first pass sees the new monitor and the open run together.
    await recordPing(t.db, { to: { token }, signal: { kind: "start" }, at: t0, sourceIp: null, userAgent: null, body: null });
    expect(await evaluateHeartbeats(t.db, t0 + 100)).toEqual([]);
    const [h] = await t.db.select().from(heartbeat).where(eq(heartbeat.monitorId, m.id));
    expect(h!.deadlineAt).toBe(t0 + 100 + 2000);
    await markReceiverAlive(t.db, t0 - 60_000, t0 + 2500);
    const [down] = await evaluateHeartbeats(t.db, t0 + 2600);
    expect(down?.status).toBe("error");
    const [row] = await t.db.select().from(statusEvent).where(eq(statusEvent.id, down!.id));
    expect(row!.errorMessage).toMatch(/^no ping since the run started at .*: it did not finish within its 2 s grace$/);
  });

  it("a deadline that passed while the ping server was away is re-armed, not alerted", async () => {
    const m = await createMonitor(t.db, ws, { kind: "heartbeat", name: "etl", request: { period: "2s", grace: "1s" } }, "operator");
    const token = (await heartbeatDetails(t.db, ws, m.id)).pingUrl.split("/ping/")[1]!;
    const t0 = Date.now() + 100_000;
    await recordPing(t.db, { to: { token }, signal: { kind: "success" }, at: t0, sourceIp: null, userAgent: null, body: null });
    await evaluateHeartbeats(t.db, t0);
    // The server came back at t0 + 30 s: the ping due at t0 + 2 s may have been lost.
    await markReceiverAlive(t.db, t0 + 30_000, t0 + 30_500);
    expect(await evaluateHeartbeats(t.db, t0 + 30_600)).toEqual([]);
    const [h] = await t.db.select().from(heartbeat).where(eq(heartbeat.monitorId, m.id));
    expect(h!.rearmedAt).toBe(t0 + 33_000);
  });

  it("exit code 3 is an error naming it, with the job's output", async () => {
    const m = await createMonitor(
      t.db,
      ws,
      { kind: "heartbeat", name: "job", request: { cron: "*/5 * * * *", timezone: "Europe/Berlin" } },
      "operator",
    );
    const token = (await heartbeatDetails(t.db, ws, m.id)).pingUrl.split("/ping/")[1]!;
    const t0 = Date.now();
    await recordPing(t.db, {
      to: { token },
      signal: { kind: "fail", exitCode: 3 },
      at: t0,
      sourceIp: null,
      userAgent: null,
      body: "disk full",
    });
    const [e] = await evaluateHeartbeats(t.db, t0 + 10);
    expect(e?.status).toBe("error");
    const [row] = await t.db.select().from(statusEvent).where(eq(statusEvent.id, e!.id));
    expect(row!.errorMessage).toBe("the job exited with code 3: disk full");
  });

  it("an invalid cron expression or time zone names the field", async () => {
    await expect(createMonitor(t.db, ws, { kind: "heartbeat", request: { cron: "61 * * * *" } }, "operator")).rejects.toThrow(
      /request\.cron.*not a valid cron expression/,
    );
    await expect(
      createMonitor(t.db, ws, { kind: "heartbeat", request: { cron: "* * * * *", timezone: "Mars/Base" } }, "operator"),
    ).rejects.toThrow(/request\.timezone/);
  });

  it("pings that arrive together are stored together, in order, each told whether its token was known", async () => {
    const jobs = await Promise.all(
      [1, 2, 3].map((i) => createMonitor(t.db, ws, { kind: "heartbeat", name: `burst-${i}`, request: { period: "1h" } }, "operator")),
    );
    const tokens = await Promise.all(jobs.map(async (j) => (await heartbeatDetails(t.db, ws, j.id)).pingUrl.split("/ping/")[1]!));
    const writer = new PingWriter(t.db, 16);
    const t0 = Date.now();
    // 60 pings at once: each job's start, then successes; every fifth to a token nobody has.
    const sent = Array.from({ length: 60 }, (_, i) => ({
      token: i % 5 === 4 ? "y".repeat(32) : tokens[i % 3]!,
      signal: i < 3 ? ({ kind: "start" } as const) : ({ kind: "success" } as const),
      at: t0 + i,
    }));
    const stored = await Promise.all(
      sent.map((p) => writer.record({ to: { token: p.token }, signal: p.signal, at: p.at, sourceIp: null, userAgent: null, body: null })),
    );
    expect(stored).toEqual(sent.map((p) => p.token !== "y".repeat(32)));
    for (const [k, job] of jobs.entries()) {
      const mine = sent.filter((p) => p.token === tokens[k]);
      const log = await t.db.select().from(heartbeatPing).where(eq(heartbeatPing.monitorId, job.id)).orderBy(heartbeatPing.id);
      expect(log.map((r) => r.at)).toEqual(mine.map((p) => p.at));
      const [row] = await t.db.select().from(heartbeat).where(eq(heartbeat.monitorId, job.id));
      expect(row!.lastPingAt).toBe(mine.at(-1)!.at);
      expect(row!.lastPingId).toBe(log.at(-1)!.id);
      // The first success after the start measured the run.
      expect(log[1]!.durationMs).toBe(log[1]!.at - log[0]!.at);
    }
  });
});
