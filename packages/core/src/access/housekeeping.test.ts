import { libsqlAnalytics } from "@vigil/analytics";
import { auditLog, checkResult, privateLocation } from "@vigil/db-schema";
import { insertResults, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyRetention,
  createMonitor,
  createPrivateLocation,
  createWorkspace,
  markSilentLocations,
  setLimits,
  touchLocation,
} from "../index";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

describe("probe health", () => {
  it("a location silent for three of its shortest intervals is marked offline once and the event recorded", async () => {
    const ws = (await createWorkspace(t.db, { name: "h" }, "operator")).id;
    await setLimits(t.db, ws, "unlimited", "operator");
    const { location } = await createPrivateLocation(t.db, ws, { name: "edge", region: "iad" }, "operator");
    await createMonitor(t.db, ws, { kind: "tcp", frequency: "30s", regions: ["iad"], request: { host: "x", port: 1 } }, "u");
    const now = Date.now();
    await touchLocation(t.db, location.id, now - 80_000);
    expect(await markSilentLocations(t.db, now)).toEqual([]);
    expect(await markSilentLocations(t.db, now + 10_001)).toEqual([location.id]);
    expect(await markSilentLocations(t.db, now + 20_000)).toEqual([]);
    const [row] = await t.db.select().from(privateLocation).where(eq(privateLocation.id, location.id));
    expect(row!.online).toBe(false);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, "private-location.offline"));
    expect(audit).toHaveLength(1);
    await touchLocation(t.db, location.id, now + 30_000);
    const [back] = await t.db.select().from(privateLocation).where(eq(privateLocation.id, location.id));
    expect(back!.online).toBe(true);
  });
});

describe("retention", () => {
  it("deletes results older than each workspace's data-retention", async () => {
    const a = (await createWorkspace(t.db, { name: "short" }, "operator")).id;
    const b = (await createWorkspace(t.db, { name: "long" }, "operator")).id;
    await setLimits(t.db, b, { "data-retention": "12 months" }, "operator");
    const now = Date.UTC(2026, 10, 22);
    const day = 86_400_000;
    let n = 0;
    const row = (workspaceId: number, ageDays: number) => ({
      id: `01K${String(n++).padStart(23, "0")}`,
      workspaceId,
      monitorId: workspaceId,
      locationId: 1,
      region: "iad",
      cronTimestamp: now - ageDays * day,
      startedAt: now - ageDays * day,
      status: "success" as const,
      latencyMs: 1,
      evaluatedAt: now,
    });
    await insertResults(t.db, [row(a, 10), row(a, 40), row(b, 40), row(b, 400)]);
    const deleted = await applyRetention(t.db, libsqlAnalytics(t.db).deleteBefore, now);
    expect(deleted).toBe(2);
    const left = await t.db.select({ ws: checkResult.workspaceId, at: checkResult.cronTimestamp }).from(checkResult);
    expect(left.map((r) => [r.ws, (now - r.at) / day]).sort()).toEqual([
      [a, 10],
      [b, 40],
    ]);
  });
});
