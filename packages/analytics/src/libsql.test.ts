import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsContract, BASE, D, insertRows, result, seedWorkspace } from "./contract";
import { libsqlAnalytics } from "./libsql";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
  await seedWorkspace(t.db);
});
afterAll(async () => t?.close());

analyticsContract("libSQL", { analytics: () => libsqlAnalytics(t.db), load: (rows) => insertRows(t.db, rows) });

describe("libSQL retention", () => {
  it("keeps results evaluation has not seen yet", async () => {
    await insertRows(t.db, [result(47, 1, BASE - 400 * D, "success", 1), result(47, 1, BASE - 399 * D, "error", 1, false)]);
    expect(await libsqlAnalytics(t.db).deleteBefore(1, BASE - 300 * D)).toBe(1);
    const left = await t.db.$client.execute("select count(*) as n from check_result where monitor_id = 47");
    expect(Number(left.rows[0]!.n)).toBe(1);
  });
});
