// Failure and success thresholds on stored results, evaluated as workflows does: only the monitors ingest says may move.
import { monitor, statusEvent } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitor, evaluateMonitors, recordResults, ValidationError } from "../index";
import { probeResult, workspaceWithLocations } from "../testing";
import { thresholdedStatus } from "./evaluate";

let t: TestDatabase;
let ws: number;
let locations: { id: number; workspaceId: number; region: string }[];
beforeAll(async () => {
  t = await startTestDatabase();
  ({ ws, locations } = await workspaceWithLocations(t.db, "thresholds", ["iad", "ams"]));
});
afterAll(async () => t?.close());

const SLOT = 60_000;
const base = Date.UTC(2026, 10, 25, 10);
const now = base + 3_600_000;
type S = "success" | "degraded" | "error";
const result = (monitorId: number, slot: number, status: S) =>
  probeResult(monitorId, base + slot * SLOT, status, { latencyMs: 10, attempts: status === "error" ? 2 : 1 });

/** One batch from one location, then evaluation of what ingest queued (as the server and workflows do). */
async function ingest(monitorId: number, loc: number, slots: [number, S][]) {
  const out = await recordResults(t.db, locations[loc]!, { results: slots.map(([slot, s]) => result(monitorId, slot, s)) });
  await evaluateMonitors(
    t.db,
    out.toEvaluate.map((e) => e.monitorId),
    now,
  );
}
/** One result per slot, one batch each. */
async function timeline(monitorId: number, statuses: S[], from = 0, loc = 0) {
  for (const [i, s] of statuses.entries()) await ingest(monitorId, loc, [[from + i, s]]);
}
const events = async (id: number) =>
  (await t.db.select().from(statusEvent).where(eq(statusEvent.monitorId, id)).orderBy(statusEvent.id)).map(
    (e) => `${e.status}@${(e.cronTimestamp - base) / SLOT}`,
  );
const newMonitor = async (failureThreshold?: number, successThreshold?: number, regions = ["iad"]) =>
  (
    await createMonitor(
      t.db,
      ws,
      { kind: "tcp", frequency: "1m", regions, request: { host: "127.0.0.1", port: 9 }, failureThreshold, successThreshold },
      "u",
    )
  ).id;

describe("failure and success thresholds", () => {
  it("threshold 3: a target failing twice then recovering raises nothing; failing 3 times raises one alert, at the third", async () => {
    const id = await newMonitor(3);
    await timeline(id, ["success", "error", "error", "success", "success"]);
    expect(await events(id)).toEqual([]);
    await timeline(id, ["error", "error", "error", "error", "error"], 5);
    expect(await events(id)).toEqual(["error@7"]);
    await timeline(id, ["success"], 10);
    expect(await events(id)).toEqual(["error@7", "recovered@10"]);
  });

  it("without thresholds the first failed check alerts, as before", async () => {
    const id = await newMonitor();
    await timeline(id, ["success", "error", "success"]);
    expect(await events(id)).toEqual(["error@1", "recovered@2"]);
  });

  it("success threshold 2: one good check inside an outage does not announce a recovery", async () => {
    const id = await newMonitor(1, 2);
    await timeline(id, ["error", "success", "error", "success", "success"]);
    expect(await events(id)).toEqual(["error@0", "recovered@4"]);
  });

  it("failed checks arriving in one batch (a probe's outbox after an outage) count one by one", async () => {
    const id = await newMonitor(3);
    await ingest(id, 0, [
      [0, "error"],
      [1, "error"],
    ]);
    expect(await events(id)).toEqual([]);
    await ingest(id, 0, [[2, "error"]]);
    expect(await events(id)).toEqual(["error@2"]);
    const fresh = await newMonitor(3);
    await ingest(fresh, 0, [
      [0, "success"],
      [1, "error"],
      [2, "error"],
      [3, "error"],
    ]);
    expect(await events(fresh)).toEqual(["error@3"]);
  });

  it("a result sent twice (a probe re-sending its batch) does not count twice", async () => {
    const id = await newMonitor(3);
    const batch = { results: [result(id, 0, "error"), result(id, 1, "error")] };
    await recordResults(t.db, locations[0]!, batch);
    const again = await recordResults(t.db, locations[0]!, batch);
    expect(again.accepted).toBe(0);
    await evaluateMonitors(t.db, [id], now);
    expect(await events(id)).toEqual([]);
  });

  it("with two locations the vote is unchanged, applied to each location's thresholded status", async () => {
    const id = await newMonitor(2, 1, ["iad", "ams"]);
    // iad fails once: under its threshold it votes up, so nothing; failing again it votes error, half of two: error.
    await timeline(id, ["success"], 0, 1);
    await timeline(id, ["error"], 0, 0);
    expect(await events(id)).toEqual([]);
    await timeline(id, ["error"], 1, 0);
    expect(await events(id)).toEqual(["error@1"]);
  });

  it("a threshold of 0 or over 100 is refused naming the field, and nothing is written", async () => {
    const before = (await t.db.select().from(monitor)).length;
    for (const [field, value] of [
      ["failureThreshold", 0],
      ["failureThreshold", 101],
      ["successThreshold", 0],
      ["successThreshold", 1.5],
    ] as const) {
      const err = await createMonitor(
        t.db,
        ws,
        { kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 }, [field]: value },
        "u",
      ).catch((e) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues[0]).toMatchObject({ path: field });
      expect((err as ValidationError).issues[0]!.message).toMatch(/1-100|whole number/);
    }
    expect(await t.db.select().from(monitor)).toHaveLength(before);
  });

  it("the thresholded vote: an error under the threshold keeps the status as it is, a good check under it keeps an outage", () => {
    const t3 = { failureThreshold: 3, successThreshold: 2 };
    expect(thresholdedStatus({ status: "error", streak: 2 }, "active", t3)).toBe("success");
    expect(thresholdedStatus({ status: "error", streak: 2 }, "degraded", t3)).toBe("degraded");
    expect(thresholdedStatus({ status: "error", streak: 3 }, "active", t3)).toBe("error");
    expect(thresholdedStatus({ status: "success", streak: 1 }, "error", t3)).toBe("error");
    expect(thresholdedStatus({ status: "degraded", streak: 2 }, "error", t3)).toBe("degraded");
  });
});
