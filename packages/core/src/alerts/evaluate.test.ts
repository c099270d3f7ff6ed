import { checkResult, maintenance, maintenanceMonitor, monitor, privateLocation, statusEvent } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { and, eq, isNull } from "drizzle-orm";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregate, createMonitor, evaluateMonitor, pendingEvaluations, recordResults, transition, updateMonitor } from "../index";
import { workspaceWithLocations } from "../testing";

describe("the status rule", () => {
  const table: [string, Parameters<typeof aggregate>[0], ReturnType<typeof aggregate>][] = [
    ["one location failing decides alone", ["error"], "error"],
    ["one location slow is degraded", ["degraded"], "degraded"],
    ["one location healthy is up", ["success"], "active"],
    ["one of two failing is half: error", ["error", "success"], "error"],
    ["one of two slow is half: degraded", ["degraded", "success"], "degraded"],
    ["one of four failing is no alert", ["error", "success", "success", "success"], "active"],
    ["two of four failing is error", ["error", "error", "success", "success"], "error"],
    ["one failing and one slow of four is degraded", ["error", "degraded", "success", "success"], "degraded"],
    ["one slow of four is fine", ["degraded", "success", "success", "success"], "active"],
    ["no location has reported: nothing to say", [], null],
  ];
  for (const [name, latest, expected] of table) it(name, () => expect(aggregate(latest)).toBe(expected));

  it("moves announce the spec's events and staying put announces nothing", () => {
    expect(transition("active", "error")).toBe("error");
    expect(transition("active", "degraded")).toBe("degraded");
    expect(transition("degraded", "error")).toBe("error");
    expect(transition("error", "degraded")).toBe("degraded");
    expect(transition("error", "active")).toBe("recovered");
    expect(transition("degraded", "active")).toBe("recovered");
    expect(transition("error", "error")).toBeNull();
    expect(transition("active", "active")).toBeNull();
  });
});

let t: TestDatabase;
let ws: number;
const regions = ["iad", "ams", "jnb", "syd"];
let locations: { id: number; workspaceId: number; region: string }[];
beforeAll(async () => {
  t = await startTestDatabase();
  ({ ws, locations } = await workspaceWithLocations(t.db, "eval", regions));
});
afterAll(async () => t?.close());

const SLOT = 60_000;
const base = Date.UTC(2026, 10, 22, 10);
// Evaluation runs on the test's clock, an hour after the first slot, never the real one.
const now = base + 3_600_000;
async function report(
  monitorId: number,
  locationIndex: number,
  slot: number,
  status: "success" | "degraded" | "error",
  extra: Record<string, unknown> = {},
) {
  return recordResults(t.db, locations[locationIndex]!, {
    results: [
      {
        id: ulid(),
        monitorId,
        cronTimestamp: base + slot * SLOT,
        startedAt: base + slot * SLOT,
        status,
        latencyMs: 10,
        attempts: status === "error" ? 4 : 1,
        ...extra,
      },
    ],
  });
}
const events = async (monitorId: number) =>
  (await t.db.select().from(statusEvent).where(eq(statusEvent.monitorId, monitorId)).orderBy(statusEvent.id)).map(
    (e) => `${e.status}@${(e.cronTimestamp - base) / SLOT}`,
  );
const newMonitor = async (n: number) =>
  (
    await createMonitor(
      t.db,
      ws,
      { kind: "tcp", frequency: "1m", regions: regions.slice(0, n), request: { host: "127.0.0.1", port: 9 } },
      "u",
    )
  ).id;

describe("evaluation against stored results", () => {
  for (const n of [1, 2, 4]) {
    it(`with ${n} location(s): down, degraded, back up each announce once`, async () => {
      const id = await newMonitor(n);
      const all = async (slot: number, status: "success" | "degraded" | "error") => {
        for (let i = 0; i < n; i++) await report(id, i, slot, status, status === "error" ? { errorMessage: "connection refused" } : {});
        await evaluateMonitor(t.db, id, now);
      };
      await all(0, "success");
      await all(1, "error");
      await all(2, "error");
      await all(3, "degraded");
      await all(4, "success");
      await all(5, "success");
      expect(await events(id)).toEqual(["error@1", "degraded@3", "recovered@4"]);
      const [m] = await t.db.select().from(monitor).where(eq(monitor.id, id));
      expect(m!.status).toBe("active");
    });
  }

  it("a result that is retried and then succeeds (no error reported) raises nothing", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 0, "success", { attempts: 3 });
    expect((await evaluateMonitor(t.db, id, now)).event).toBeNull();
  });

  it("with 4 locations one failing raises nothing and two failing raise one error", async () => {
    const id = await newMonitor(4);
    for (let i = 0; i < 4; i++) await report(id, i, 0, i === 0 ? "error" : "success");
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual([]);
    for (let i = 0; i < 4; i++) await report(id, i, 1, i < 2 ? "error" : "success");
    await evaluateMonitor(t.db, id, now);
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@1"]);
  });

  it("a late result from an older slot never moves the status backwards", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 5, "error");
    await evaluateMonitor(t.db, id, now);
    await report(id, 0, 3, "success");
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@5"]);
    expect((await pendingEvaluations(t.db, 0)).find((p) => p.monitorId === id)).toBeUndefined();
  });

  it("replaying an evaluation adds no second event", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 1, "error");
    const first = await evaluateMonitor(t.db, id, now);
    const again = await evaluateMonitor(t.db, id, now);
    expect(first.event?.status).toBe("error");
    expect(again.event).toBeNull();
    expect(await events(id)).toEqual(["error@1"]);
  });

  it("error opens an incident and recovery resolves it; the event keeps the error message and code", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 1, "error", { errorMessage: "timed out after 45000 ms" });
    const down = await evaluateMonitor(t.db, id, now);
    await report(id, 0, 2, "success", { statusCode: 200 });
    const up = await evaluateMonitor(t.db, id, now);
    const rows = await t.db.select().from(statusEvent).where(eq(statusEvent.monitorId, id)).orderBy(statusEvent.id);
    expect(rows[0]).toMatchObject({ status: "error", errorMessage: "timed out after 45000 ms", incidentId: expect.any(Number) });
    expect(rows[1]).toMatchObject({ status: "recovered", errorMessage: null, latencyMs: 10, incidentId: rows[0]!.incidentId });
    expect(down.event?.id).toBe(rows[0]!.id);
    expect(up.event?.id).toBe(rows[1]!.id);
  });

  it("an active maintenance window records the event but marks it suppressed", async () => {
    const id = await newMonitor(1);
    const [mw] = await t.db
      .insert(maintenance)
      .values({ workspaceId: ws, title: "upgrade", startsAt: base, endsAt: base + 10 * SLOT })
      .returning();
    await t.db.insert(maintenanceMonitor).values({ maintenanceId: mw!.id, monitorId: id });
    await report(id, 0, 2, "error");
    const out = await evaluateMonitor(t.db, id, now);
    expect(out.event).toMatchObject({ status: "error", suppressed: true });
  });

  const setOnline = async (locationIndex: number, online: boolean) =>
    t.db.update(privateLocation).set({ online }).where(eq(privateLocation.id, locations[locationIndex]!.id));
  const pending = async (id: number) =>
    (
      await t.db
        .select()
        .from(checkResult)
        .where(and(eq(checkResult.monitorId, id), isNull(checkResult.evaluatedAt)))
    ).length;

  it("a probe that died while red stops holding the monitor in error once it is offline", async () => {
    const id = await newMonitor(2);
    await report(id, 0, 0, "success");
    await report(id, 1, 0, "success");
    await evaluateMonitor(t.db, id, now);
    // Location 1 sees an outage and dies; location 0 keeps reporting green.
    await report(id, 1, 1, "error");
    await report(id, 0, 1, "success");
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@1"]);
    await setOnline(1, false);
    await report(id, 0, 2, "success");
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@1", "recovered@2"]);
    await setOnline(1, true);
  });

  it("a probe that died while green does not hide an outage the other location sees", async () => {
    const id = await newMonitor(2);
    await report(id, 0, 0, "success");
    await report(id, 1, 0, "success");
    await evaluateMonitor(t.db, id, now);
    await setOnline(1, false);
    await report(id, 0, 1, "error", { errorMessage: "connection refused" });
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@1"]);
    await setOnline(1, true);
  });

  it("with four locations, one offline leaves three to vote: two failing of three alert", async () => {
    const id = await newMonitor(4);
    for (let i = 0; i < 4; i++) await report(id, i, 0, i === 3 ? "error" : "success");
    await evaluateMonitor(t.db, id, now);
    await setOnline(3, false);
    for (let i = 0; i < 3; i++) await report(id, i, 1, i < 2 ? "error" : "success");
    await evaluateMonitor(t.db, id, now);
    expect(await events(id)).toEqual(["error@1"]);
    await setOnline(3, true);
  });

  it("when every location serving a monitor is offline: no data, no alert either way, nothing left pending", async () => {
    const id = await newMonitor(2);
    await report(id, 0, 0, "error");
    await report(id, 1, 0, "error");
    await setOnline(0, false);
    await setOnline(1, false);
    const out = await evaluateMonitor(t.db, id, now);
    expect(out).toMatchObject({ event: null, cronTimestamp: null });
    expect(await events(id)).toEqual([]);
    expect(await pending(id)).toBe(0);
    await setOnline(0, true);
    await setOnline(1, true);
  });

  it("pending results of a monitor whose serving locations have all gone silent are settled, not re-queued for ever", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 0, "success");
    await setOnline(0, false);
    // A location of another region is live but does not serve this monitor.
    await evaluateMonitor(t.db, id, now);
    expect(await pending(id)).toBe(0);
    expect((await pendingEvaluations(t.db, 0, now + 60_000)).find((p) => p.monitorId === id)).toBeUndefined();
    await setOnline(0, true);
  });
});

describe("results that change nothing are settled as they are stored", () => {
  const queued = async (p: ReturnType<typeof report>, id: number) => (await p).toEvaluate.some((e) => e.monitorId === id);
  const stillPending = async (id: number) => (await pendingEvaluations(t.db, 0, Date.now() + 60_000)).some((p) => p.monitorId === id);
  // On the real clock: an edit is compared with the time of the last evaluation.

  it("a healthy monitor's repeated results queue no evaluation and leave nothing pending", async () => {
    const id = await newMonitor(1);
    expect(await queued(report(id, 0, 0, "success"), id)).toBe(true);
    await evaluateMonitor(t.db, id);
    for (const slot of [1, 2, 3]) expect(await queued(report(id, 0, slot, "success"), id), `slot ${slot}`).toBe(false);
    expect(await stillPending(id)).toBe(false);
  });

  it("a change is queued, and so is a repeat that arrives before the change was evaluated; each moves once", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 0, "success");
    await evaluateMonitor(t.db, id);
    expect(await queued(report(id, 0, 1, "error"), id)).toBe(true);
    expect(await queued(report(id, 0, 2, "error"), id)).toBe(true);
    await evaluateMonitor(t.db, id);
    expect(await queued(report(id, 0, 3, "error"), id)).toBe(false);
    expect(await queued(report(id, 0, 4, "success"), id)).toBe(true);
    await evaluateMonitor(t.db, id);
    expect(await events(id)).toEqual(["error@2", "recovered@4"]);
    expect(await stillPending(id)).toBe(false);
  });

  it("with two locations, a repeat waits for the other location's change to be evaluated", async () => {
    const id = await newMonitor(2);
    await report(id, 0, 0, "success");
    await report(id, 1, 0, "success");
    await evaluateMonitor(t.db, id);
    expect(await queued(report(id, 1, 1, "error"), id)).toBe(true);
    // Location 0 repeats itself, but location 1's error is not evaluated yet: not settled here.
    expect(await queued(report(id, 0, 1, "success"), id)).toBe(true);
    expect(await stillPending(id)).toBe(true);
    await evaluateMonitor(t.db, id);
    expect(await events(id)).toEqual(["error@1"]);
    expect(await queued(report(id, 0, 2, "success"), id)).toBe(false);
  });

  it("an edited monitor is evaluated on its next result even when the result repeats itself", async () => {
    const id = await newMonitor(1);
    await report(id, 0, 0, "error");
    await evaluateMonitor(t.db, id);
    await updateMonitor(t.db, ws, id, { name: "renamed" }, "u");
    expect(await queued(report(id, 0, 1, "error"), id)).toBe(true);
    await evaluateMonitor(t.db, id);
    expect(await queued(report(id, 0, 2, "error"), id)).toBe(false);
  });
});
