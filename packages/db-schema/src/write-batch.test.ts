import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspace, writeBatch } from "./index";
import { startTestDatabase, type TestDatabase } from "./testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

/** Counts the round trips the client makes with write batches while `fn` runs. */
async function countingBatches<T>(fn: () => Promise<T>): Promise<{ out: T; trips: number }> {
  const client = t.db.$client;
  const batch = client.batch.bind(client);
  let trips = 0;
  client.batch = ((stmts: Parameters<typeof batch>[0], mode?: Parameters<typeof batch>[1]) => {
    trips++;
    return batch(stmts, mode);
  }) as typeof client.batch;
  try {
    return { out: await fn(), trips };
  } finally {
    client.batch = batch;
  }
}

describe("write batches sent at the same moment", () => {
  it("are committed in a few round trips, each caller getting its own rows back in order", async () => {
    const names = Array.from({ length: 60 }, (_, i) => `together ${i}`);
    const { out, trips } = await countingBatches(() =>
      Promise.all(
        names.map((name) =>
          writeBatch(t.db, [
            t.db.insert(workspace).values({ name }).returning({ id: workspace.id, name: workspace.name }),
            // Sees its own batch's insert: statements keep their order inside a group.
            sql`update workspace set slug = ${`slug-${name.replace(" ", "-")}`} where id = last_insert_rowid()`,
          ]),
        ),
      ),
    );
    expect(trips).toBeLessThanOrEqual(3);
    for (const [i, [inserted, updated]] of out.entries()) {
      expect(inserted!.rows[0]!.name).toBe(names[i]);
      expect(updated!.rowsAffected).toBe(1);
      const [row] = await t.db
        .select()
        .from(workspace)
        .where(eq(workspace.id, Number(inserted!.rows[0]!.id)));
      expect(row!.slug).toBe(`slug-together-${i}`);
    }
  });

  it("a batch the database refuses fails alone, and the batches grouped with it still commit", async () => {
    const [taken] = await t.db.insert(workspace).values({ name: "taken", slug: "taken" }).returning();
    const writes = ["before", "clash", "after"].map((name) =>
      writeBatch(t.db, [
        t.db.insert(workspace).values({ name }),
        ...(name === "clash" ? [t.db.insert(workspace).values({ id: taken!.id, name: "duplicate id" })] : []),
      ]),
    );
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const names = (await t.db.select({ name: workspace.name }).from(workspace)).map((w) => w.name);
    expect(names).toContain("before");
    expect(names).toContain("after");
    // The refused batch left nothing, not even its first statement.
    expect(names).not.toContain("clash");
  });
});
