import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseBusyError, workspace } from "./index";
import { startTestDatabase, type TestDatabase } from "./testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

const busy = () => Object.assign(new Error("SQLITE_BUSY: database is locked"), { code: "SQLITE_BUSY" });
// What drizzle throws when sqld already ended the transaction: the rollback fails and hides the cause.
const rolledBack = () => new Error("SQLITE_UNKNOWN: SQLite error: cannot rollback - no transaction is active");

describe("a write transaction that meets a busy database", () => {
  it("is retried and commits once the lock is free", async () => {
    let attempts = 0;
    const id = await t.db.transaction(async (tx) => {
      attempts++;
      if (attempts === 1) throw busy();
      if (attempts === 2) throw rolledBack();
      const [row] = await tx.insert(workspace).values({ name: "after a busy start" }).returning();
      return row!.id;
    });
    expect(attempts).toBe(3);
    expect((await t.db.select().from(workspace)).filter((w) => w.id === id)).toHaveLength(1);
  });

  it("gives up with DatabaseBusyError (the API's 503) when it stays busy, and writes nothing", async () => {
    const before = (await t.db.select().from(workspace)).length;
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(workspace).values({ name: "never" });
        throw busy();
      }),
    ).rejects.toBeInstanceOf(DatabaseBusyError);
    expect((await t.db.select().from(workspace)).length).toBe(before);
  });

  it("a mistake in the caller's own work is not retried", async () => {
    let attempts = 0;
    await expect(
      t.db.transaction(async () => {
        attempts++;
        throw new Error("monitors.0.frequency must be one of 30s, 1m");
      }),
    ).rejects.toThrow(/frequency/);
    expect(attempts).toBe(1);
  });
});
