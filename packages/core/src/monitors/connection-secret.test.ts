import { monitor } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitor, getMonitor, monitorsForLocation, updateMonitor } from "../index";
import { unlimitedWorkspace } from "../testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

const CONNECTION = "postgres://monitor:s3cret-pw@db.internal:5432/orders";
const pgMonitor = (extra: Record<string, unknown> = {}) => ({
  key: "orders-db",
  kind: "postgres",
  frequency: "1m",
  regions: ["iad"],
  request: { connection: CONNECTION, query: "SELECT 1" },
  ...extra,
});

const workspace = () => unlimitedWorkspace(t.db);

describe("a database monitor's connection string is a secret", () => {
  it("is shown as *** in every answer, stored encrypted, and given in full only to the probe", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, pgMonitor(), "u");
    expect(m.request).toEqual({ connection: "***", query: "SELECT 1" });
    expect(JSON.stringify(await getMonitor(t.db, ws, m.id))).not.toContain("s3cret");
    const raw = await t.db.all<{ connection: string }>(sql`select connection from monitor where id = ${m.id}`);
    expect(raw[0]!.connection).not.toContain("s3cret");
    const [probe] = await monitorsForLocation(t.db, { workspaceId: ws, region: "iad" });
    expect(probe!.check).toMatchObject({ kind: "postgres", connection: CONNECTION });
  });

  it("sending *** back keeps the stored one; a new value replaces it", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, pgMonitor(), "u");
    await updateMonitor(t.db, ws, m.id, { request: { connection: "***", query: "SELECT 2" } }, "u");
    let [row] = await t.db.select().from(monitor).where(eq(monitor.id, m.id));
    expect(row!.connection).toBe(CONNECTION);
    await updateMonitor(t.db, ws, m.id, { request: { connection: "postgresql://other@db2.internal/x" } }, "u");
    [row] = await t.db.select().from(monitor).where(eq(monitor.id, m.id));
    expect(row!.connection).toBe("postgresql://other@db2.internal/x");
  });

  it("*** cannot carry a stored string over to another kind of database, nor stand where nothing is stored", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, pgMonitor(), "u");
    await expect(updateMonitor(t.db, ws, m.id, { kind: "redis", request: { connection: "***" } }, "u")).rejects.toThrow(
      /request\.connection: "\*\*\*" stands for a stored connection string that is not a redis one/,
    );
    await expect(createMonitor(t.db, ws, pgMonitor({ key: "x", request: { connection: "***" } }), "u")).rejects.toThrow(
      /request\.connection: "\*\*\*" stands for a stored secret, and none is stored here/,
    );
  });

  it("a connection string that is not one is refused naming the field and the rule, nothing stored", async () => {
    const ws = await workspace();
    await expect(createMonitor(t.db, ws, pgMonitor({ request: { connection: "host=db user=x" } }), "u")).rejects.toThrow(
      /request\.connection must be a connection URL such as postgres:\/\//,
    );
    await expect(createMonitor(t.db, ws, pgMonitor({ request: { connection: "mysql://db/x" } }), "u")).rejects.toThrow(
      /request\.connection/,
    );
    expect(await t.db.select().from(monitor).where(eq(monitor.workspaceId, ws))).toEqual([]);
  });
});
