import { monitor, notificationChannel } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { LimitExceededError } from "@vigil/limits";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyMonitors,
  ConflictError,
  createMonitor,
  createMonitors,
  createWorkspace,
  deleteMonitor,
  getMonitor,
  listMonitors,
  monitorsEtag,
  monitorsForLocation,
  NotFoundError,
  setLimits,
  updateMonitor,
  ValidationError,
} from "../index";
import { httpMonitor as http } from "../testing";

let t: TestDatabase;
beforeAll(async () => {
  t = await startTestDatabase();
});
afterAll(async () => t?.close());

async function workspace(preset: "unlimited" | "restricted" = "unlimited") {
  const ws = await createWorkspace(t.db, { name: `ws-${Math.random()}` }, "operator");
  if (preset !== "restricted") await setLimits(t.db, ws.id, preset, "operator");
  return ws.id;
}

describe("monitors", () => {
  it("a created monitor reads back with defaults: retry 3, timeout 45 s, active", async () => {
    const ws = await workspace();
    const m = await createMonitor(
      t.db,
      ws,
      { kind: "tcp", frequency: "30s", regions: ["iad"], request: { host: "db.internal", port: 5432 } },
      "user:1",
    );
    expect(m).toMatchObject({
      kind: "tcp",
      retry: 3,
      timeout: 45_000,
      active: true,
      status: "active",
      request: { host: "db.internal", port: 5432 },
    });
    expect(await getMonitor(t.db, ws, m.id)).toEqual(m);
  });

  it("a batch with one invalid entry creates none and names the entry's field", async () => {
    const ws = await workspace();
    const err = await createMonitors(t.db, ws, [http("a"), http("b", { frequency: "2m" })], "user:1").catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toEqual({ path: "monitors.1.frequency", message: "must be one of 30s, 1m, 5m, 10m, 30m, 1h" });
    expect(await listMonitors(t.db, ws)).toEqual([]);
  });

  it("a batch that goes over the monitors limit creates none", async () => {
    const ws = await workspace("restricted");
    const err = await createMonitors(t.db, ws, [http("a", { frequency: "10m" }), http("b", { frequency: "10m" })], "user:1").catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(LimitExceededError);
    expect(err.violation).toMatchObject({ key: "monitors", limit: 1, attempted: 2 });
    expect(await listMonitors(t.db, ws)).toEqual([]);
  });

  it("restricted limits refuse a fast frequency and several regions", async () => {
    const ws = await workspace("restricted");
    await expect(createMonitor(t.db, ws, http("a"), "u")).rejects.toMatchObject({ violation: { key: "periodicity" } });
    await expect(createMonitor(t.db, ws, http("a", { frequency: "1h", regions: ["iad", "ams"] }), "u")).rejects.toMatchObject({
      violation: { key: "multi-region" },
    });
  });

  it("an entry key is unique per workspace while the monitor lives", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, http("api"), "u");
    await expect(createMonitor(t.db, ws, http("api"), "u")).rejects.toBeInstanceOf(ConflictError);
    await deleteMonitor(t.db, ws, m.id, "u");
    await expect(createMonitor(t.db, ws, http("api"), "u")).resolves.toMatchObject({ key: "api" });
  });

  it("degradedAfter must be below timeout", async () => {
    const ws = await workspace();
    await expect(createMonitor(t.db, ws, http("x", { timeout: "5s", degradedAfter: "10s" }), "u")).rejects.toThrow(
      /degradedAfter must be less than timeout/,
    );
  });

  it("PATCH changes only what it names, bumps the version and the probe's ETag", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, http("p", { request: { url: "http://127.0.0.1:9/p", headers: { A: "1" } } }), "u");
    const etag = await monitorsEtag(t.db, ws, "iad");
    const u = await updateMonitor(t.db, ws, m.id, { request: { method: "POST" }, name: "renamed" }, "u");
    expect(u).toMatchObject({ name: "renamed", request: { url: "http://127.0.0.1:9/p", method: "POST", headers: { A: "1" } } });
    expect(await monitorsEtag(t.db, ws, "iad")).not.toBe(etag);
    await expect(updateMonitor(t.db, ws, m.id, { frequency: "7m" }, "u")).rejects.toThrow(/frequency must be one of/);
    await expect(updateMonitor(t.db, ws + 1000, m.id, { name: "x" }, "u")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("tags are stored without repeats, replaced whole by PATCH, and a bad tag is refused with nothing written", async () => {
    const ws = await workspace();
    const m = await createMonitor(t.db, ws, http("tagged", { tags: ["prod", "team:api", "prod"] }), "u");
    expect(m.tags).toEqual(["prod", "team:api"]);
    expect((await updateMonitor(t.db, ws, m.id, { tags: ["staging"] }, "u")).tags).toEqual(["staging"]);
    await expect(updateMonitor(t.db, ws, m.id, { tags: ["has space"] }, "u")).rejects.toThrow(/tags\.0 must be letters/);
    expect((await getMonitor(t.db, ws, m.id)).tags).toEqual(["staging"]);
    expect((await createMonitor(t.db, ws, http("untagged"), "u")).tags).toEqual([]);
  });

  it("OTLP header values are never shown, and sending back *** keeps them", async () => {
    const ws = await workspace();
    const m = await createMonitor(
      t.db,
      ws,
      http("o", { openTelemetry: { endpoint: "http://127.0.0.1:4318/v1/metrics", headers: { Authorization: "Bearer s3cret" } } }),
      "u",
    );
    expect(m.openTelemetry).toEqual({ endpoint: "http://127.0.0.1:4318/v1/metrics", headers: { Authorization: "***" } });
    await updateMonitor(t.db, ws, m.id, { openTelemetry: m.openTelemetry, name: "n" }, "u");
    const [row] = await t.db.select().from(monitor).where(eq(monitor.id, m.id));
    expect(row!.otelHeaders).toEqual({ Authorization: "Bearer s3cret" });
    await expect(createMonitor(t.db, ws, http("o2", { openTelemetry: { endpoint: "grpc://x:4317" } }), "u")).rejects.toThrow(
      /openTelemetry.endpoint/,
    );
  });

  it("monitors link to channels by name; an unknown name is refused", async () => {
    const ws = await workspace();
    await t.db.insert(notificationChannel).values({ workspaceId: ws, name: "ops", kind: "webhook", config: { url: "http://127.0.0.1:9" } });
    const m = await createMonitor(t.db, ws, http("c", { channels: ["ops"] }), "u");
    expect(m.channels).toEqual(["ops"]);
    await expect(createMonitor(t.db, ws, http("d", { channels: ["nope"] }), "u")).rejects.toThrow(/no notification channel named "nope"/);
  });

  it("apply plans create, update, unchanged and (with prune) delete by entry key", async () => {
    const ws = await workspace();
    await applyMonitors(t.db, ws, [http("a"), http("b"), http("c")], {}, "u");
    const dry = await applyMonitors(t.db, ws, [http("a"), http("b", { frequency: "5m" }), http("d")], { prune: true, dryRun: true }, "u");
    expect(dry).toEqual({ create: ["d"], update: ["b"], delete: ["c"], unchanged: ["a"], applied: false });
    expect((await listMonitors(t.db, ws)).map((m) => m.key)).toEqual(["a", "b", "c"]);
    const noPrune = await applyMonitors(t.db, ws, [http("a"), http("b", { frequency: "5m" }), http("d")], {}, "u");
    expect(noPrune).toMatchObject({ create: ["d"], update: ["b"], delete: [], applied: true });
    const pruned = await applyMonitors(t.db, ws, [http("a"), http("b", { frequency: "5m" }), http("d")], { prune: true }, "u");
    expect(pruned).toMatchObject({ create: [], update: [], delete: ["c"], unchanged: ["a", "b", "d"] });
    expect((await listMonitors(t.db, ws)).map((m) => m.key)).toEqual(["a", "b", "d"]);
  });

  it("a monitor made without a key, exported and applied again, is updated in place and keeps the export's key", async () => {
    const ws = await workspace();
    const { key: _key, ...unkeyed } = http("x", { name: "Mail TLS" });
    const made = await createMonitor(t.db, ws, unkeyed, "u");
    expect(made.key).toBeNull();
    // What the export names it, with a changed frequency, plus a new entry.
    const plan = await applyMonitors(t.db, ws, [http("mail-tls", { name: "Mail TLS", frequency: "5m" }), http("new")], {}, "u");
    expect(plan).toMatchObject({ create: ["new"], update: ["mail-tls"], applied: true });
    const list = await listMonitors(t.db, ws);
    expect(list.map((m) => [m.id === made.id, m.key, m.frequency])).toEqual([
      [true, "mail-tls", "5m"],
      [false, "new", "1m"],
    ]);
    // Pruning never deletes a keyless monitor for a file that does not name it.
    const { key: _k2, ...other } = http("y", { name: "Other" });
    await createMonitor(t.db, ws, other, "u");
    const pruned = await applyMonitors(
      t.db,
      ws,
      [http("mail-tls", { name: "Mail TLS", frequency: "5m" }), http("new")],
      { prune: true },
      "u",
    );
    expect(pruned).toMatchObject({ delete: [], unchanged: ["mail-tls", "new"] });
  });

  // Creating 12,001 monitors takes ~12 s alone, over 30 s beside the suite's e2e files.
  it("a location's list holds every monitor when they are more than one read of the database can answer", {
    timeout: 120_000,
  }, async () => {
    const ws = await workspace();
    // Past 10 MB of rows, which sqld refuses to answer at once (about 10,000 monitors).
    const n = 12_001;
    for (let i = 0; i < n; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, n - i) }, (_, j) => http(`m${i + j}`, { regions: ["iad"] }));
      await createMonitors(t.db, ws, batch, "u");
    }
    const list = await monitorsForLocation(t.db, { workspaceId: ws, region: "iad" });
    expect(list).toHaveLength(n);
    expect(new Set(list.map((m) => m.id)).size).toBe(n);
    expect(list.map((m) => m.id)).toEqual([...list.map((m) => m.id)].sort((a, b) => a - b));
  });

  it("a location runs the active monitors that list its region", async () => {
    const ws = await workspace();
    await createMonitors(
      t.db,
      ws,
      [http("iad"), http("ams", { regions: ["ams"] }), http("off", { active: false }), http("both", { regions: ["ams", "iad"] })],
      "u",
    );
    const list = await monitorsForLocation(t.db, { workspaceId: ws, region: "iad" });
    expect(list.map((m) => m.name)).toEqual(["iad", "both"]);
    expect(list[0]).toMatchObject({
      intervalMs: 60_000,
      check: { kind: "http", url: "http://127.0.0.1:9/iad", retry: 3, timeoutMs: 45_000 },
    });
  });
});
