import { createApiKey, createWorkspace, rotatePingKey, setLimits } from "@vigil/core";
import { heartbeatPing, monitor } from "@vigil/db-schema";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

describe("heartbeat ping URLs", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 120_000);
  afterAll(async () => s?.close());

  it("a job pings with no API key, a long log is cut at 10 kB, and a paused or unknown token gets the same 404", {
    timeout: 60_000,
  }, async () => {
    const created = await s.call("POST", "/v1/monitors", { kind: "heartbeat", name: "job", request: { period: "1m" } });
    expect(created.status).toBe(201);
    const hb = await s.call("GET", `/v1/heartbeats/${created.body.id}`);
    const path = new URL(hb.body.pingUrl).pathname;
    const ok = await fetch(`${s.url}${path}/3`, { method: "POST", body: "x".repeat(50_000) });
    expect([ok.status, await ok.text()]).toEqual([200, "OK\n"]);
    const [row] = await s.database.db.select().from(heartbeatPing).where(eq(heartbeatPing.monitorId, created.body.id));
    expect([row!.kind, row!.exitCode, row!.body!.length]).toEqual(["fail", 3, 10_000]);
    const unknown = await fetch(`${s.url}/ping/${"a".repeat(32)}`);
    await s.call("PATCH", `/v1/monitors/${created.body.id}`, { active: false });
    const paused = await fetch(`${s.url}${path}`);
    expect([unknown.status, await unknown.text()]).toEqual([paused.status, await paused.text()]);
    expect(paused.status).toBe(404);
  });

  it("a script pings its heartbeat by name with the workspace ping key; a wrong key, another workspace's name or a replaced key get the same 404", {
    timeout: 60_000,
  }, async () => {
    const made = await s.call("POST", "/v1/monitors", {
      kind: "heartbeat",
      key: "nightly backup",
      name: "Backup",
      request: { period: "1d" },
    });
    expect(made.status).toBe(201);
    const none = await s.call("GET", "/v1/workspace/ping-key");
    expect(none.body).toEqual({ pingKey: null, autoCreate: false, pingUrlBase: null });
    const { body: keyed } = await s.call("POST", "/v1/workspace/ping-key/rotate");
    expect(keyed.pingKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const byName = `${new URL(keyed.pingUrlBase).pathname}/${encodeURIComponent("nightly backup")}`;

    const start = await fetch(`${s.url}${byName}/start`);
    const done = await fetch(`${s.url}${byName}/0`, { method: "POST", body: "copied 12 files" });
    expect([start.status, done.status]).toEqual([200, 200]);
    const pings = await s.database.db.select().from(heartbeatPing).where(eq(heartbeatPing.monitorId, made.body.id));
    expect(pings.map((p) => p.kind)).toEqual(["start", "success"]);
    expect(pings[1]!.body).toBe("copied 12 files");
    expect(pings[1]!.durationMs).toBeGreaterThanOrEqual(0);

    // Another workspace's heartbeat of the same name is out of reach of this key, and looks unknown.
    const other = await createWorkspace(s.database.db, { name: "Other" }, "operator");
    await setLimits(s.database.db, other.id, "unlimited", "operator");
    const otherKey = (await createApiKey(s.database.db, other.id, { name: "o" }, "operator")).key;
    expect((await s.call("POST", "/v1/monitors", { kind: "heartbeat", key: "theirs", request: { period: "1d" } }, otherKey)).status).toBe(
      201,
    );
    await rotatePingKey(s.database.db, other.id, "operator");
    const answers = await Promise.all(
      [
        `${new URL(keyed.pingUrlBase).pathname}/theirs`,
        `/ping/${"b".repeat(22)}/${encodeURIComponent("nightly backup")}`,
        `${byName}/start/extra`,
      ].map(async (path) => {
        const r = await fetch(`${s.url}${path}`);
        return [r.status, await r.text()];
      }),
    );
    expect(answers).toEqual([
      [404, "not found\n"],
      [404, "not found\n"],
      [404, "not found\n"],
    ]);

    const { body: replaced } = await s.call("POST", "/v1/workspace/ping-key/rotate");
    expect(replaced.pingKey).not.toBe(keyed.pingKey);
    expect((await fetch(`${s.url}${byName}`)).status).toBe(404);
    expect((await fetch(`${s.url}${new URL(replaced.pingUrlBase).pathname}/${encodeURIComponent("nightly backup")}`)).status).toBe(200);
  });

  it("a ping by name makes a missing heartbeat only when the workspace allows it, and within its monitor limit", {
    timeout: 60_000,
  }, async () => {
    const { body: keyed } = await s.call("POST", "/v1/workspace/ping-key/rotate");
    const base = `${s.url}${new URL(keyed.pingUrlBase).pathname}`;
    const url = `${base}/etl-import?create=1`;
    const made = () =>
      s.database.db
        .select()
        .from(monitor)
        .where(and(eq(monitor.workspaceId, s.workspaceId), eq(monitor.key, "etl-import"), isNull(monitor.deletedAt)));

    expect((await fetch(url)).status, "off by default").toBe(404);
    expect(await made()).toEqual([]);

    const bad = await s.call("PATCH", "/v1/workspace/ping-key", { autoCreate: "yes" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("autoCreate");
    expect((await s.call("PATCH", "/v1/workspace/ping-key", { autoCreate: true })).body.autoCreate).toBe(true);
    expect((await fetch(`${base}/etl-import`)).status, "no ?create=1, nothing made").toBe(404);
    expect((await fetch(url)).status).toBe(200);
    const [created] = await made();
    expect(created).toMatchObject({ kind: "heartbeat", name: "etl-import", hbPeriodMs: 86_400_000, hbGraceMs: 3_600_000 });
    const again = await fetch(url);
    expect(again.status).toBe(200);
    expect(await made()).toHaveLength(1);
    const log = await s.database.db.select().from(heartbeatPing).where(eq(heartbeatPing.monitorId, created!.id));
    expect(log).toHaveLength(2);

    // At the workspace's monitor limit the job learns why, and nothing is made.
    const count = (await s.call("GET", "/v1/monitors")).body.length;
    await setLimits(s.database.db, s.workspaceId, { monitors: count }, "operator");
    const full = await fetch(`${base}/one-too-many?create=1`);
    expect(full.status).toBe(403);
    expect(await full.text()).toMatch(/monitors/);
    await setLimits(s.database.db, s.workspaceId, "unlimited", "operator");
  });

  it("a read-only API key sees a heartbeat but neither its ping URL nor the workspace ping key", { timeout: 60_000 }, async () => {
    const made = await s.call("POST", "/v1/monitors", { kind: "heartbeat", name: "read-only view", request: { period: "1h" } });
    const { key } = await createApiKey(s.database.db, s.workspaceId, { name: "reader", scopes: ["read"] }, "operator");
    const seen = await s.call("GET", `/v1/heartbeats/${made.body.id}`, undefined, key);
    expect(seen.status).toBe(200);
    expect(seen.body.pingUrl).toBeNull();
    expect(seen.body.state).toBe("new");
    const keyRead = await s.call("GET", "/v1/workspace/ping-key", undefined, key);
    expect(keyRead.status).toBe(403);
    expect(keyRead.body.error.message).toContain("write scope");
  });

  it("a heartbeat moves from a period to a cron schedule and back in one PATCH each", { timeout: 60_000 }, async () => {
    const made = await s.call("POST", "/v1/monitors", { kind: "heartbeat", name: "switch", request: { period: "5m", grace: "1m" } });
    const toCron = await s.call("PATCH", `/v1/monitors/${made.body.id}`, { request: { cron: "0 3 * * *", timezone: "Europe/Berlin" } });
    expect(toCron.status, JSON.stringify(toCron.body)).toBe(200);
    expect(toCron.body.request).toEqual({ cron: "0 3 * * *", timezone: "Europe/Berlin", grace: 60_000 });
    const back = await s.call("PATCH", `/v1/monitors/${made.body.id}`, { request: { period: "10m" } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.request).toEqual({ period: 600_000, grace: 60_000 });
    // null removes a field; a schedule left with neither is refused, naming the field, and nothing changes.
    const neither = await s.call("PATCH", `/v1/monitors/${made.body.id}`, { request: { period: null } });
    expect(neither.status).toBe(400);
    expect(JSON.stringify(neither.body)).toContain("request.period");
    expect((await s.call("GET", `/v1/monitors/${made.body.id}`)).body.request).toEqual({ period: 600_000, grace: 60_000 });
  });
});
