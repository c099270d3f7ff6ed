import { monitorLocationStatus, notificationDelivery, privateLocation, statusEvent } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  createMonitor,
  createPrivateLocation,
  listMonitorPage,
  monitorCheck,
  monitorEvents,
  NotFoundError,
  workspaceTags,
} from "../index";
import { unlimitedWorkspace } from "../testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

const workspace = () => unlimitedWorkspace(t.db);

const names = (p: Awaited<ReturnType<typeof listMonitorPage>>) => p.rows.map((r) => r.name);

describe("the monitor list", () => {
  it("searches name, URL and host; filters by status, kind and location; sorts and pages; health matches the API's", async () => {
    const ws = await workspace();
    const { location: fra } = await createPrivateLocation(t.db, ws, { name: "fra-1", region: "fra" }, "operator");
    await t.db.update(privateLocation).set({ online: true }).where(eq(privateLocation.id, fra.id));
    await createPrivateLocation(t.db, ws, { name: "iad-1", region: "iad" }, "operator"); // offline
    const mk = (name: string, extra: Record<string, unknown>) =>
      createMonitor(
        t.db,
        ws,
        {
          name,
          kind: "http",
          frequency: "1m",
          regions: ["fra"],
          request: { url: `https://${name.toLowerCase().replace(/[^a-z0-9]/g, "")}.example.com/` },
          ...extra,
        },
        "operator",
      );
    const api = await mk("Api", { tags: ["prod", "team:web"] });
    const db = await createMonitor(
      t.db,
      ws,
      { name: "Db", kind: "tcp", frequency: "1m", regions: ["fra"], tags: ["prod"], request: { host: "pg.internal", port: 5432 } },
      "operator",
    );
    await mk("Old", { active: false });
    await mk("Far", { regions: ["syd"] });
    await mk("Dark", { regions: ["iad"] });
    await mk("50%_off", {});
    await t.db.insert(monitorLocationStatus).values([
      { monitorId: api.id, locationId: fra.id, status: "success", cronTimestamp: 2000, resultId: "a", latencyMs: 80 },
      {
        monitorId: db.id,
        locationId: fra.id,
        status: "error",
        cronTimestamp: 1000,
        resultId: "b",
        latencyMs: 5,
        errorMessage: "ECONNREFUSED",
      },
    ]);
    await t.db.$client.execute({ sql: "update monitor set status = 'error' where id = ?", args: [db.id] });

    const all = await listMonitorPage(t.db, ws);
    expect(all.total).toBe(6);
    // Default order: worst first, then by name.
    expect(all.rows.map((r) => [r.name, r.health])).toEqual([
      ["Db", "error"],
      ["Dark", "no-data"],
      ["Far", "no-probe"],
      ["50%_off", "ok"],
      ["Api", "ok"],
      ["Old", "paused"],
    ]);
    const dbRow = all.rows[0]!;
    expect(dbRow).toMatchObject({ kind: "tcp", target: "pg.internal:5432", lastCheckAt: 1000, latencyMs: 5 });
    expect(dbRow.locations).toEqual([
      expect.objectContaining({ name: "fra-1", status: "error", errorMessage: "ECONNREFUSED", online: true }),
    ]);

    expect(names(await listMonitorPage(t.db, ws, { q: "pg.internal" }))).toEqual(["Db"]);
    expect(names(await listMonitorPage(t.db, ws, { q: "API.example" }))).toEqual(["Api"]);
    // LIKE wildcards in the search are taken literally.
    expect(names(await listMonitorPage(t.db, ws, { q: "50%_" }))).toEqual(["50%_off"]);
    expect(names(await listMonitorPage(t.db, ws, { status: "paused" }))).toEqual(["Old"]);
    expect(names(await listMonitorPage(t.db, ws, { status: "ok" }))).toEqual(["50%_off", "Api"]);
    expect(names(await listMonitorPage(t.db, ws, { kind: "tcp" }))).toEqual(["Db"]);
    // A tag matches whole: "team" is not "team:web".
    expect(names(await listMonitorPage(t.db, ws, { tag: "prod" }))).toEqual(["Db", "Api"]);
    expect(names(await listMonitorPage(t.db, ws, { tag: "team:web" }))).toEqual(["Api"]);
    expect(await listMonitorPage(t.db, ws, { tag: "team" })).toMatchObject({ total: 0, workspaceTotal: 6 });
    expect(await workspaceTags(t.db, ws)).toEqual(["prod", "team:web"]);
    expect(names(await listMonitorPage(t.db, ws, { region: "iad" }))).toEqual(["Dark"]);
    expect(names(await listMonitorPage(t.db, ws, { sort: "latency", dir: "desc" })).slice(0, 2)).toEqual(["Api", "Db"]);
    expect(names(await listMonitorPage(t.db, ws, { sort: "last-check", dir: "desc" })).slice(0, 2)).toEqual(["Api", "Db"]);

    const p2 = await listMonitorPage(t.db, ws, { sort: "name", perPage: 10, page: 1 });
    expect(p2).toMatchObject({ total: 6, pages: 1, page: 1, workspaceTotal: 6 });
    // Pages past the end show the last one; another workspace sees none of these.
    expect((await listMonitorPage(t.db, ws, { page: 99 })).page).toBe(1);
    const other = await workspace();
    expect(await workspaceTags(t.db, other)).toEqual([]);
    expect(await listMonitorPage(t.db, other, { q: "Api" })).toMatchObject({ total: 0, workspaceTotal: 0, rows: [] });
    const filtered = await listMonitorPage(t.db, ws, { q: "nothing-like-this" });
    expect(filtered).toMatchObject({ total: 0, workspaceTotal: 6 });
  });

  it("a monitor's events carry the deliveries of each channel; another workspace's monitor is not found for a run", async () => {
    const ws = await workspace();
    await createChannel(t.db, ws, { name: "ops hook", kind: "webhook", config: { url: "http://127.0.0.1:9/hook" } }, "operator");
    const m = await createMonitor(
      t.db,
      ws,
      {
        name: "Api",
        kind: "http",
        frequency: "1m",
        regions: ["fra"],
        channels: ["ops hook"],
        request: { url: "https://x.example.com/", headers: { authorization: "Bearer s3cret" } },
      },
      "operator",
    );
    const [ev] = await t.db
      .insert(statusEvent)
      .values({
        workspaceId: ws,
        monitorId: m.id,
        status: "error",
        previousStatus: "active",
        cronTimestamp: 60_000,
        errorMessage: "timeout",
      })
      .returning();
    const channelId = (await t.db.$client.execute({ sql: "select id from notification_channel where workspace_id = ?", args: [ws] }))
      .rows[0]!.id as number;
    await t.db.insert(notificationDelivery).values([
      { eventId: ev!.id, channelId, attempt: 1, outcome: "retrying", responseCode: 502, error: "bad gateway" },
      { eventId: ev!.id, channelId, attempt: 2, outcome: "sent", responseCode: 200 },
    ]);
    const events = await monitorEvents(t.db, ws, m.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: "error", errorMessage: "timeout" });
    expect(events[0]!.deliveries.map((d) => [d.channel, d.attempt, d.outcome, d.responseCode])).toEqual([
      ["ops hook", 1, "retrying", 502],
      ["ops hook", 2, "sent", 200],
    ]);
    // The probe gets the real secret header for a run started from the dashboard.
    const run = await monitorCheck(t.db, ws, m.id);
    expect(JSON.stringify(run.check)).toContain("Bearer s3cret");
    const other = await workspace();
    await expect(monitorCheck(t.db, other, m.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await monitorEvents(t.db, other, m.id)).toEqual([]);
  });
});
