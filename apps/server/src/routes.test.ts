import { auditLog, checkResult, monitorLocationStatus, privateLocation } from "@vigil/db-schema";
import { eq } from "drizzle-orm";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

const http = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  kind: "http",
  frequency: "1m",
  regions: ["iad"],
  request: { url: `http://127.0.0.1:9/${key}` },
  ...extra,
});

async function otherWorkspace(preset?: string) {
  const other = await startTestServer({}, s.database);
  if (preset) await s.database.db.$client.execute({ sql: "update workspace set limits = null where id = ?", args: [other.workspaceId] });
  return other;
}

describe("authentication", () => {
  it("no key or a wrong key is 401 with the error body", async () => {
    for (const token of [null, "vgl_key_wrong", "garbage"]) {
      const r = await s.call("GET", "/v1/monitors", undefined, token);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthorized");
    }
  });

  it("a resource of another workspace is 404", async () => {
    const created = await s.call("POST", "/v1/monitors", http("mine"));
    const other = await otherWorkspace();
    expect((await other.call("GET", `/v1/monitors/${created.body.id}`)).status).toBe(404);
    expect((await other.call("PATCH", `/v1/monitors/${created.body.id}`, { name: "x" })).status).toBe(404);
    expect((await other.call("DELETE", `/v1/monitors/${created.body.id}`)).status).toBe(404);
    expect((await s.call("GET", `/v1/monitors/${created.body.id}`)).status).toBe(200);
    await other.close();
  });

  it("a probe key is not an API key and an API key is not a probe key", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "p1", region: "iad" });
    expect((await s.call("GET", "/v1/monitors", undefined, loc.body.serviceKey)).status).toBe(401);
    expect((await s.call("GET", "/v1/probe/monitors", undefined, s.apiKey)).status).toBe(401);
  });
});

describe("monitors", () => {
  it("create, read, list, patch, delete", async () => {
    const c = await s.call(
      "POST",
      "/v1/monitors",
      http("crud", { name: "CRUD", assertions: [{ kind: "statusCode", compare: "eq", target: 200 }] }),
    );
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ key: "crud", name: "CRUD", retry: 3, timeout: 45_000, status: "active", kind: "http" });
    const id = c.body.id;
    expect((await s.call("GET", `/v1/monitors/${id}`)).body).toEqual(c.body);
    expect((await s.call("GET", "/v1/monitors")).body.monitors.map((m: { id: number }) => m.id)).toContain(id);
    const p = await s.call("PATCH", `/v1/monitors/${id}`, { frequency: "5m" });
    expect(p.body.frequency).toBe("5m");
    expect((await s.call("DELETE", `/v1/monitors/${id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/monitors/${id}`)).status).toBe(404);
    expect((await s.call("GET", "/v1/monitors/abc")).status).toBe(404);
  });

  it("a bad monitor is 400 naming the field and the rule", async () => {
    const r = await s.call("POST", "/v1/monitors", http("bad", { frequency: "2m", regions: [] }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_input");
    expect(r.body.error.issues).toEqual(
      expect.arrayContaining([
        { path: "frequency", message: "must be one of 30s, 1m, 5m, 10m, 30m, 1h" },
        { path: "regions", message: "must list at least one region" },
      ]),
    );
  });

  it("malformed JSON is 400, not 500", async () => {
    const r = await s.call("POST", "/v1/monitors", "{not json");
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/JSON/i);
  });

  it("a batch is all or nothing", async () => {
    const before = (await s.call("GET", "/v1/monitors")).body.monitors.length;
    const bad = await s.call("POST", "/v1/monitors/batch", { monitors: [http("b1"), http("b2", { kind: "ftp" })] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toMatch(/^monitors\.1/);
    expect((await s.call("GET", "/v1/monitors")).body.monitors.length).toBe(before);
    const ok = await s.call("POST", "/v1/monitors/batch", { monitors: [http("b1"), http("b2")] });
    expect(ok.status).toBe(201);
    expect(ok.body.monitors.map((m: { key: string }) => m.key)).toEqual(["b1", "b2"]);
  });

  it("apply shows a plan with dry run and applies it otherwise", async () => {
    const body = { monitors: [http("ap1"), http("ap2")] };
    const dry = await s.call("POST", "/v1/monitors/apply", { ...body, dryRun: true });
    expect(dry.body).toEqual({ create: ["ap1", "ap2"], update: [], delete: [], unchanged: [], applied: false });
    const real = await s.call("POST", "/v1/monitors/apply", body);
    expect(real.body).toMatchObject({ create: ["ap1", "ap2"], applied: true });
  });

  it("every change is in the audit log", async () => {
    const r = await s.call("GET", "/v1/audit-log?limit=5");
    expect(r.status).toBe(200);
    expect(r.body.entries[0]).toMatchObject({ action: "monitor.apply", actor: expect.stringMatching(/^api-key:\d+$/) });
  });
});

describe("limits on every write", () => {
  it("the monitors count, periodicity and multi-region are enforced with 403 limit_exceeded", async () => {
    const other = await otherWorkspace("restricted");
    const fast = await other.call("POST", "/v1/monitors", http("f", { frequency: "30s" }));
    expect(fast.status).toBe(403);
    expect(fast.body.error).toMatchObject({ code: "limit_exceeded", key: "periodicity", limit: ["10m", "30m", "1h"], attempted: "30s" });
    const multi = await other.call("POST", "/v1/monitors", http("m", { frequency: "10m", regions: ["iad", "ams"] }));
    expect(multi.body.error).toMatchObject({ code: "limit_exceeded", key: "multi-region" });
    expect((await other.call("POST", "/v1/monitors", http("one", { frequency: "10m" }))).status).toBe(201);
    const second = await other.call("POST", "/v1/monitors", http("two", { frequency: "10m" }));
    expect(second.body.error).toMatchObject({ code: "limit_exceeded", key: "monitors", limit: 1, attempted: 2 });
    const patch = await other.call("PATCH", `/v1/monitors/${(await other.call("GET", "/v1/monitors")).body.monitors[0].id}`, {
      frequency: "1m",
    });
    expect(patch.body.error.key).toBe("periodicity");
    await other.close();
  });

  it("private locations need the private-locations limit", async () => {
    const other = await otherWorkspace("restricted");
    const r = await other.call("POST", "/v1/private-locations", { name: "edge" });
    expect(r.status).toBe(403);
    expect(r.body.error.key).toBe("private-locations");
    await other.close();
  });

  it("channels count against notification-channels; sms and pagerduty need their features; notifications off refuses all", async () => {
    const other = await otherWorkspace("restricted");
    const sms = await other.call("POST", "/v1/channels", { name: "sms", kind: "sms", config: { phone: "+14155550123" } });
    expect(sms.status).toBe(403);
    expect(sms.body.error).toMatchObject({ code: "limit_exceeded", key: "sms" });
    const wa = await other.call("POST", "/v1/channels", { name: "wa", kind: "whatsapp", config: { phone: "+14155550123" } });
    expect(wa.body.error).toMatchObject({ code: "limit_exceeded", key: "sms" });
    const pd = await other.call("POST", "/v1/channels", {
      name: "pd",
      kind: "pagerduty",
      config: { routingKey: "0123456789abcdef0123456789abcdef" },
    });
    expect(pd.status).toBe(403);
    expect(pd.body.error).toMatchObject({ code: "limit_exceeded", key: "incident-alerting" });
    const first = await other.call("POST", "/v1/channels", { name: "hook", kind: "webhook", config: { url: "http://127.0.0.1:9/hook" } });
    expect(first.status).toBe(201);
    const second = await other.call("POST", "/v1/channels", { name: "hook2", kind: "webhook", config: { url: "http://127.0.0.1:9/hook" } });
    expect(second.body.error).toMatchObject({ code: "limit_exceeded", key: "notification-channels", limit: 1, attempted: 2 });
    await s.database.db.$client.execute({
      sql: `update workspace set limits = '{"notifications": false, "notification-channels": 5}' where id = ?`,
      args: [other.workspaceId],
    });
    const off = await other.call("POST", "/v1/channels", { name: "hook3", kind: "webhook", config: { url: "http://127.0.0.1:9/hook" } });
    expect(off.body.error).toMatchObject({ code: "limit_exceeded", key: "notifications" });
    await other.close();
  });

  it("an expired plan falls back to restricted at once", async () => {
    const other = await otherWorkspace();
    await s.database.db.$client.execute({ sql: "update workspace set ends_at = 1 where id = ?", args: [other.workspaceId] });
    const r = await other.call("GET", "/v1/workspace");
    expect(r.body).toMatchObject({ expired: true, limits: { monitors: 1, "private-locations": false } });
    expect((await other.call("POST", "/v1/monitors", http("x", { frequency: "1m" }))).status).toBe(403);
    await other.close();
  });
});

describe("notification channels", () => {
  it("secrets never come back, *** keeps them, and channels link to monitors", async () => {
    const m = await s.call("POST", "/v1/monitors", http("chan-target"));
    const c = await s.call("POST", "/v1/channels", {
      name: "ops-hook",
      kind: "webhook",
      config: { url: "http://127.0.0.1:9/hook", headers: { Authorization: "Bearer top-secret" } },
      monitors: [m.body.id],
    });
    expect(c.status).toBe(201);
    expect(JSON.stringify(c.body)).not.toContain("top-secret");
    expect(c.body.config.headers.Authorization).toBe("***");
    expect(c.body.monitors).toEqual([m.body.id]);
    const renamed = await s.call("PATCH", `/v1/channels/${c.body.id}`, { config: c.body.config, name: "ops" });
    expect(renamed.status).toBe(200);
    const stored = await s.database.db.$client.execute({ sql: "select config from notification_channel where id = ?", args: [c.body.id] });
    expect(String(stored.rows[0]!.config)).toContain("top-secret");
    expect((await s.call("POST", `/v1/channels/${c.body.id}/disable`)).body.enabled).toBe(false);
    expect((await s.call("POST", `/v1/channels/${c.body.id}/enable`)).body.enabled).toBe(true);
    expect((await s.call("PUT", `/v1/channels/${c.body.id}/monitors`, { monitors: [] })).body.monitors).toEqual([]);
    expect((await s.call("PUT", `/v1/channels/${c.body.id}/monitors`, { monitors: [999999] })).status).toBe(400);
    expect((await s.call("DELETE", `/v1/channels/${c.body.id}`)).status).toBe(204);
  });

  it("an invalid channel config is refused naming the field", async () => {
    const r = await s.call("POST", "/v1/channels", { name: "bad", kind: "webhook", config: { url: "not a url" } });
    expect(r.status).toBe(400);
    expect(r.body.error.issues[0].path).toBe("config.url");
    const k = await s.call("POST", "/v1/channels", { name: "bad", kind: "carrier-pigeon", config: {} });
    expect(k.body.error.issues[0].path).toBe("kind");
  });

  it("test-send reaches the channel's endpoint", async () => {
    const received: string[] = [];
    const { createServer } = await import("node:http");
    const hook = createServer((req, res) => {
      let b = "";
      req.on("data", (d) => (b += d));
      req.on("end", () => {
        received.push(b);
        res.end("ok");
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    const port = (hook.address() as { port: number }).port;
    const c = await s.call("POST", "/v1/channels", { name: "tester", kind: "webhook", config: { url: `http://127.0.0.1:${port}/t` } });
    const r = await s.call("POST", `/v1/channels/${c.body.id}/test`);
    expect(r.body).toEqual({ ok: true, status: 200 });
    expect(received).toHaveLength(1);
    expect(Object.keys(JSON.parse(received[0]!)).sort()).toEqual(["cronTimestamp", "monitor", "status"]);
    hook.close();
  });
});

describe("probe endpoints", () => {
  it("a location lists its region's monitors with an ETag and answers 304 when nothing changed", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "etag-probe", region: "jnb" });
    const key = loc.body.serviceKey;
    expect(key).toMatch(/^vgl_loc_/);
    await s.call("POST", "/v1/monitors", http("jnb-only", { regions: ["jnb"] }));
    const first = await s.call("GET", "/v1/probe/monitors", undefined, key);
    expect(first.status).toBe(200);
    expect(first.body.monitors.map((m: { name: string }) => m.name)).toEqual(["jnb-only"]);
    const etag = first.headers.get("etag")!;
    const again = await fetch(`${s.url}/v1/probe/monitors`, { headers: { authorization: `Bearer ${key}`, "if-none-match": etag } });
    expect(again.status).toBe(304);
    await s.call("POST", "/v1/monitors", http("jnb-two", { regions: ["jnb"] }));
    const changed = await fetch(`${s.url}/v1/probe/monitors`, { headers: { authorization: `Bearer ${key}`, "if-none-match": etag } });
    expect(changed.status).toBe(200);
    const list = await s.call("GET", "/v1/private-locations");
    expect(list.body.privateLocations.find((l: { name: string }) => l.name === "etag-probe").lastSeenAt).toBeGreaterThan(0);
  });

  it("a long-poll wakes when a monitor changes", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "waiter", region: "syd" });
    const key = loc.body.serviceKey;
    const first = await s.call("GET", "/v1/probe/wait?timeout=0", undefined, key);
    const t0 = Date.now();
    const waiting = s.call("GET", `/v1/probe/wait?etag=${encodeURIComponent(first.body.etag)}&timeout=10000`, undefined, key);
    await new Promise((r) => setTimeout(r, 200));
    await s.call("POST", "/v1/monitors", http("syd-mon", { regions: ["syd"] }));
    const woke = await waiting;
    expect(woke.body.changed).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("ingest stores a batch once: a resent batch stores nothing twice", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "ingester", region: "gru" });
    const m = await s.call("POST", "/v1/monitors", http("gru-mon", { regions: ["gru"] }));
    const slot = Date.UTC(2026, 10, 22, 12);
    const results = [0, 1, 2].map((i) => ({
      id: ulid(),
      monitorId: m.body.id,
      cronTimestamp: slot + i * 60_000,
      startedAt: slot + i * 60_000 + 5,
      status: "success",
      latencyMs: 12.4,
      statusCode: 200,
      attempts: 1,
    }));
    const first = await s.call("POST", "/v1/probe/results", { results }, loc.body.serviceKey);
    expect(first.body).toEqual({ accepted: 3, duplicates: 0, ignored: 0, queued: true });
    const again = await s.call("POST", "/v1/probe/results", { results }, loc.body.serviceKey);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 3 });
    // Same slot, new id (a probe that lost its outbox state): still stored once.
    const sameSlot = await s.call("POST", "/v1/probe/results", { results: [{ ...results[0], id: ulid() }] }, loc.body.serviceKey);
    expect(sameSlot.body).toMatchObject({ accepted: 0, duplicates: 1 });
    const rows = await s.database.db.select().from(checkResult).where(eq(checkResult.monitorId, m.body.id));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.evaluatedAt === null)).toBe(true);
    const [status] = await s.database.db.select().from(monitorLocationStatus).where(eq(monitorLocationStatus.monitorId, m.body.id));
    expect(status!.cronTimestamp).toBe(slot + 120_000);
    // A late, older result does not move the location's latest status backwards.
    await s.call(
      "POST",
      "/v1/probe/results",
      { results: [{ ...results[0], id: ulid(), cronTimestamp: slot - 60_000, status: "error", errorMessage: "late" }] },
      loc.body.serviceKey,
    );
    const [still] = await s.database.db.select().from(monitorLocationStatus).where(eq(monitorLocationStatus.monitorId, m.body.id));
    expect(still!.cronTimestamp).toBe(slot + 120_000);
    const summary = await s.call("GET", `/v1/monitors/${m.body.id}/summary?from=${slot - 3_600_000}&to=${slot + 3_600_000}`);
    expect(summary.body.series.reduce((n: number, p: { total: number }) => n + p.total, 0)).toBe(4);
  });

  it("an invalid result batch is 400 and writes nothing; results of unknown monitors are ignored", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "strict", region: "hkg" });
    const bad = await s.call(
      "POST",
      "/v1/probe/results",
      { results: [{ id: "nope", monitorId: 1, cronTimestamp: 1, startedAt: 1, status: "fine", latencyMs: -1, attempts: 0 }] },
      loc.body.serviceKey,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["results.0.id", "results.0.status"]),
    );
    const unknown = await s.call(
      "POST",
      "/v1/probe/results",
      {
        results: [{ id: ulid(), monitorId: 987654, cronTimestamp: 1_000, startedAt: 1_000, status: "success", latencyMs: 1, attempts: 1 }],
      },
      loc.body.serviceKey,
    );
    expect(unknown.body).toMatchObject({ accepted: 0, ignored: 1 });
  });

  it("a deleted location's probe is refused", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "gone", region: "ams" });
    expect((await s.call("DELETE", `/v1/private-locations/${loc.body.id}`)).status).toBe(204);
    expect((await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey)).status).toBe(401);
    const [row] = await s.database.db.select().from(privateLocation).where(eq(privateLocation.id, loc.body.id));
    expect(row!.deletedAt).not.toBeNull();
  });

  it("trigger runs the check on a probe serving the monitor and returns its result", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "runner", region: "lax" });
    const key = loc.body.serviceKey;
    const m = await s.call("POST", "/v1/monitors", http("lax-mon", { regions: ["lax"], timeout: "2s" }));
    // A minimal probe: long-polls, answers the run it is given.
    const probe = (async () => {
      for (let i = 0; i < 20; i++) {
        const w = await s.call("GET", "/v1/probe/wait?etag=x&timeout=3000", undefined, key);
        for (const run of w.body.runs) {
          expect(run.check).toMatchObject({ kind: "http", retry: 0, timeoutMs: 2000 });
          await s.call(
            "POST",
            `/v1/probe/runs/${run.runId}`,
            { status: "error", latencyMs: 3, attempts: 1, errorMessage: "connection refused" },
            key,
          );
          return;
        }
      }
    })();
    const r = await s.call("POST", `/v1/monitors/${m.body.id}/trigger`);
    await probe;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      location: { id: loc.body.id, name: "runner", region: "lax" },
      result: { status: "error", latencyMs: 3, attempts: 1, errorMessage: "connection refused" },
    });
  });

  it("trigger without a probe for the monitor's regions says so", async () => {
    const m = await s.call("POST", "/v1/monitors", http("nowhere", { regions: ["waw"] }));
    const r = await s.call("POST", `/v1/monitors/${m.body.id}/trigger`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("no_probe");
  });
});

describe("service endpoints", () => {
  it("serves /healthz, Prometheus /metrics and an OpenAPI document", async () => {
    expect((await s.call("GET", "/healthz", undefined, null)).body).toMatchObject({ status: "ok", service: "server" });
    const metrics = await fetch(`${s.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/vigil_http_requests_total\{.*route="\/v1\/monitors".*\} \d+/);
    expect(metrics).toMatch(/vigil_ingest_rows_total\{outcome="accepted",service="server"\} \d+/);
    const doc = (await s.call("GET", "/openapi.json", undefined, null)).body;
    expect(doc.openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/monitors", "/v1/monitors/{id}", "/v1/probe/results", "/v1/channels/{id}/test"]),
    );
    expect(doc.paths["/v1/monitors"].post.requestBody.content["application/json"].schema).toBeDefined();
  });

  it("audit rows name the API key that made the change", async () => {
    const rows = await s.database.db.select().from(auditLog).where(eq(auditLog.workspaceId, s.workspaceId));
    expect(rows.some((r) => r.action === "channel.create" && r.actor.startsWith("api-key:"))).toBe(true);
  });
});
