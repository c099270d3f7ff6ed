import { CHECK_KINDS } from "@vigil/api-contract";
import { httpMonitor as http, probeResult } from "@vigil/core/testing";
import { auditLog, checkResult, monitorLocationStatus, notificationChannel, privateLocation } from "@vigil/db-schema";
import { eq } from "drizzle-orm";
import { ulid } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsHeaders, startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

async function otherWorkspace(preset?: string) {
  const other = await startTestServer({}, s.database);
  if (preset) await s.database.db.$client.execute({ sql: "update workspace set limits = null where id = ?", args: [other.workspaceId] });
  return other;
}

/** A probe's success result for `monitorId` at a slot, as the probe posts it. */
const successOf = (monitorId: number) => (slot: number) => probeResult(monitorId, slot, "success", { latencyMs: 1, attempts: 1 });
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

  it("every resource of another workspace answers 404 and changes nothing", async () => {
    const m = await s.call("POST", "/v1/monitors", http("owned-by-a"));
    const ch = await s.call("POST", "/v1/channels", { name: "a-hook", kind: "webhook", config: { url: "http://127.0.0.1:9/a" } });
    const loc = await s.call("POST", "/v1/private-locations", { name: "a-probe", region: "iad" });
    const pg = await s.call("POST", "/v1/status-pages", { slug: "a-page", title: "a-page" });
    const grp = await s.call("POST", `/v1/status-pages/${pg.body.id}/groups`, { name: "a-group" });
    const cmp = await s.call("POST", `/v1/status-pages/${pg.body.id}/components`, { name: "a-component" });
    const rep = await s.call("POST", "/v1/status-reports", { pageId: pg.body.id, title: "a-report", message: "a-report" });
    const mnt = await s.call("POST", "/v1/maintenances", { pageId: pg.body.id, title: "a-window", startsAt: 1_000, endsAt: 2_000 });
    const hb = await s.call("POST", "/v1/monitors", { kind: "heartbeat", key: "a-job", name: "a-job", request: { period: "1h" } });
    const pol = await s.call("POST", "/v1/escalation-policies", { name: "a-policy", steps: [{ afterMinutes: 0, channels: ["a-hook"] }] });
    expect([hb.status, pol.status]).toEqual([201, 201]);
    const other = await otherWorkspace();
    const routes: [string, string, unknown?][] = [
      ["GET", `/v1/monitors/${m.body.id}`],
      ["PATCH", `/v1/monitors/${m.body.id}`, { name: "taken" }],
      ["DELETE", `/v1/monitors/${m.body.id}`],
      ["POST", `/v1/monitors/${m.body.id}/trigger`],
      ["GET", `/v1/monitors/${m.body.id}/summary`],
      ["GET", `/v1/channels/${ch.body.id}`],
      ["PATCH", `/v1/channels/${ch.body.id}`, { name: "taken" }],
      ["DELETE", `/v1/channels/${ch.body.id}`],
      ["POST", `/v1/channels/${ch.body.id}/enable`],
      ["POST", `/v1/channels/${ch.body.id}/disable`],
      ["POST", `/v1/channels/${ch.body.id}/test`],
      ["PUT", `/v1/channels/${ch.body.id}/monitors`, { monitors: [] }],
      ["GET", `/v1/channels/${ch.body.id}/deliveries`],
      ["DELETE", `/v1/private-locations/${loc.body.id}`],
      ["GET", `/v1/status-pages/${pg.body.id}`],
      ["PATCH", `/v1/status-pages/${pg.body.id}`, { title: "taken" }],
      ["DELETE", `/v1/status-pages/${pg.body.id}`],
      ["GET", `/v1/status-pages/${pg.body.id}/components`],
      ["POST", `/v1/status-pages/${pg.body.id}/groups`, { name: "taken" }],
      ["POST", `/v1/status-pages/${pg.body.id}/components`, { name: "taken" }],
      ["PUT", `/v1/status-pages/${pg.body.id}/components/order`, { ids: [] }],
      ["POST", `/v1/status-pages/${pg.body.id}/domain/verify`],
      ["PATCH", `/v1/status-pages/groups/${grp.body.id}`, { name: "taken" }],
      ["DELETE", `/v1/status-pages/groups/${grp.body.id}`],
      ["PATCH", `/v1/status-pages/components/${cmp.body.id}`, { name: "taken" }],
      ["DELETE", `/v1/status-pages/components/${cmp.body.id}`],
      ["POST", "/v1/status-reports", { pageId: pg.body.id, title: "taken", message: "taken" }],
      ["GET", `/v1/status-reports/${rep.body.id}`],
      ["PATCH", `/v1/status-reports/${rep.body.id}`, { title: "taken" }],
      ["DELETE", `/v1/status-reports/${rep.body.id}`],
      ["POST", `/v1/status-reports/${rep.body.id}/updates`, { status: "resolved", message: "taken" }],
      ["GET", `/v1/maintenances/${mnt.body.id}`],
      ["PATCH", `/v1/maintenances/${mnt.body.id}`, { title: "taken" }],
      ["DELETE", `/v1/maintenances/${mnt.body.id}`],
      ["GET", `/v1/heartbeats/${hb.body.id}`],
      ["POST", `/v1/heartbeats/${hb.body.id}/rotate`],
      ["GET", `/v1/escalation-policies/${pol.body.id}`],
      ["PUT", `/v1/escalation-policies/${pol.body.id}`, { name: "taken", steps: [{ afterMinutes: 0, channels: ["b-hook"] }] }],
      ["DELETE", `/v1/escalation-policies/${pol.body.id}`],
      ["POST", `/v1/monitors/${m.body.id}/ack`, {}],
      ["GET", `/v1/sla/monitors/${m.body.id}?month=2026-10`],
      ["GET", `/v1/sla/status-pages/${pg.body.id}?month=2026-10`],
    ];
    for (const [method, path, body] of routes) {
      const r = await other.call(method, path, body);
      expect({ method, path, status: r.status, code: r.body?.error?.code }).toEqual({ method, path, status: 404, code: "not_found" });
    }
    // Linking another workspace's monitor to one's own channel is refused too.
    const mine = await other.call("POST", "/v1/channels", { name: "b-hook", kind: "webhook", config: { url: "http://127.0.0.1:9/b" } });
    expect((await other.call("PUT", `/v1/channels/${mine.body.id}/monitors`, { monitors: [m.body.id] })).status).toBe(400);
    // Nothing of A shows in B's lists or audit log, and A's resources are untouched.
    const lists = await Promise.all(
      [
        "/v1/monitors",
        "/v1/channels",
        "/v1/private-locations",
        "/v1/audit-log",
        "/v1/status-pages",
        "/v1/status-reports",
        "/v1/maintenances",
      ].map((p) => other.call("GET", p)),
    );
    expect(JSON.stringify(lists.map((l) => l.body))).not.toMatch(/owned-by-a|a-hook|a-probe|a-page|a-report|a-window/);
    expect((await s.call("GET", `/v1/status-reports/${rep.body.id}`)).body).toMatchObject({
      title: "a-report",
      status: "investigating",
      resolvedAt: null,
    });
    expect((await s.call("GET", `/v1/status-pages/${pg.body.id}/components`)).body.components).toHaveLength(1);
    expect((await s.call("GET", `/v1/maintenances/${mnt.body.id}`)).body.title).toBe("a-window");
    expect((await s.call("GET", `/v1/monitors/${m.body.id}`)).body.name).toBe("owned-by-a");
    expect((await s.call("GET", `/v1/channels/${ch.body.id}`)).body).toMatchObject({ name: "a-hook", enabled: true });
    expect((await s.call("GET", "/v1/private-locations")).body.privateLocations.map((l: { id: number }) => l.id)).toContain(loc.body.id);
    await other.close();
  });

  it("a revoked API key is refused on the very next request", async () => {
    const { createApiKey, revokeApiKey } = await import("@vigil/core");
    const { id, key } = await createApiKey(s.database.db, s.workspaceId, { name: "short-lived" }, "operator");
    expect((await s.call("GET", "/v1/whoami", undefined, key)).status).toBe(200);
    const { listApiKeys } = await import("@vigil/core");
    expect((await listApiKeys(s.database.db, s.workspaceId)).find((k) => k.id === id)?.lastUsedAt).toEqual(expect.any(Number));
    await revokeApiKey(s.database.db, s.workspaceId, id, "operator");
    expect((await s.call("GET", "/v1/whoami", undefined, key)).status).toBe(401);
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

  it("the list filters by tag: only monitors carrying every tag named, and a bad tag is 400 naming the rule", async () => {
    for (const [key, tags] of [
      ["tag-a", ["prod", "team:payments"]],
      ["tag-b", ["prod"]],
      ["tag-c", []],
    ] as const)
      expect((await s.call("POST", "/v1/monitors", http(key, { tags }))).status).toBe(201);
    const keys = async (q: string) => (await s.call("GET", `/v1/monitors${q}`)).body.monitors.map((m: { key: string }) => m.key);
    expect(await keys("?tag=prod")).toEqual(["tag-a", "tag-b"]);
    expect(await keys("?tag=prod&tag=team%3Apayments")).toEqual(["tag-a"]);
    expect(await keys("?tag=staging")).toEqual([]);
    expect(await keys("")).toEqual(expect.arrayContaining(["tag-a", "tag-b", "tag-c"]));
    const bad = await s.call("GET", "/v1/monitors?tag=has%20space");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/tag must be letters, digits/);
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

  it("every error is the JSON error shape, its code matching its status, naming what was wrong with the body as a whole", async () => {
    const raw = async (method: string, path: string, body?: string, type = "application/json") => {
      const r = await fetch(`${s.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${s.apiKey}`, ...(body !== undefined ? { "content-type": type } : {}) },
        body,
      });
      return { status: r.status, type: r.headers.get("content-type"), body: await r.json() };
    };
    const cases: [string, string, string | undefined, string, number, string, RegExp][] = [
      ["GET", "/nope", undefined, "", 404, "not_found", /no route GET \/nope/],
      ["GET", "/v1/nope", undefined, "", 404, "not_found", /no route/],
      ["GET", "/v1/monitors/abc", undefined, "", 404, "not_found", /abc/],
      ["POST", "/v1/monitors", "[]", "application/json", 400, "invalid_input", /^the body must be a JSON object \(got an array\)$/],
      ["POST", "/v1/monitors", "null", "application/json", 400, "invalid_input", /got null/],
      ["POST", "/v1/monitors", '"x"', "application/json", 400, "invalid_input", /got a string/],
      ["POST", "/v1/monitors", "{", "application/json", 400, "bad_request", /not valid JSON/],
      ["POST", "/v1/monitors", "kind: http", "text/plain", 415, "unsupported_media_type", /Content-Type: application\/json/],
      [
        "POST",
        "/v1/monitors",
        "{}",
        "application/json",
        400,
        "invalid_input",
        new RegExp(`^kind must be one of ${CHECK_KINDS.join(", ")}$`),
      ],
      ["POST", "/v1/channels", "[]", "application/json", 400, "invalid_input", /must be a JSON object/],
      ["PATCH", "/v1/monitors/1", "[]", "application/json", 400, "invalid_input", /must be a JSON object/],
    ];
    for (const [method, path, body, type, status, code, message] of cases) {
      const r = await raw(method, path, body, type);
      expect({ path, body, status: r.status, code: r.body.error.code, json: r.type?.startsWith("application/json") }).toEqual({
        path,
        body,
        status,
        code,
        json: true,
      });
      expect(r.body.error.message).toMatch(message);
    }
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
    // Read as the services read it (decrypted): the stored secret was kept.
    const [stored] = await s.database.db
      .select({ config: notificationChannel.config })
      .from(notificationChannel)
      .where(eq(notificationChannel.id, c.body.id));
    expect(JSON.stringify(stored!.config)).toContain("top-secret");
    expect((await s.call("POST", `/v1/channels/${c.body.id}/disable`)).body.enabled).toBe(false);
    expect((await s.call("POST", `/v1/channels/${c.body.id}/enable`)).body.enabled).toBe(true);
    expect((await s.call("PUT", `/v1/channels/${c.body.id}/monitors`, { monitors: [] })).body.monitors).toEqual([]);
    expect((await s.call("PUT", `/v1/channels/${c.body.id}/monitors`, { monitors: [999999] })).status).toBe(400);
    expect((await s.call("DELETE", `/v1/channels/${c.body.id}`)).status).toBe(204);
  });

  it("a monitor's secret request headers never come back; *** keeps them and the probe still gets the real value", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "secret-probe", region: "bos" });
    const c = await s.call(
      "POST",
      "/v1/monitors",
      http("with-secrets", {
        regions: ["bos"],
        request: {
          url: "http://127.0.0.1:9/private",
          headers: { Authorization: "Bearer top-secret", Cookie: "sid=abc", "X-Tenant": "acme", "X-Trace": "on", Accept: "text/plain" },
          secretHeaders: ["X-Tenant"],
        },
      }),
    );
    expect(c.status).toBe(201);
    const shown = { Authorization: "***", Cookie: "***", "X-Tenant": "***", "X-Trace": "on", Accept: "text/plain" };
    expect(c.body.request.headers).toEqual(shown);
    for (const path of [`/v1/monitors/${c.body.id}`, "/v1/monitors"]) {
      const text = JSON.stringify((await s.call("GET", path)).body);
      expect(text).not.toMatch(/top-secret|sid=abc|acme/);
    }
    // Sending the redacted monitor back (what a PATCH of another field does) keeps the stored secrets.
    const p = await s.call("PATCH", `/v1/monitors/${c.body.id}`, { request: c.body.request, name: "renamed" });
    expect(p.body.request.headers).toEqual(shown);
    const probe = await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey);
    const check = probe.body.monitors.find((m: { id: number }) => m.id === c.body.id).check;
    expect(check.headers).toEqual({
      Authorization: "Bearer top-secret",
      Cookie: "sid=abc",
      "X-Tenant": "acme",
      "X-Trace": "on",
      Accept: "text/plain",
    });
  });

  it("a monitor no private location serves is accepted but shows no-probe, and no-data once its probes are offline", async () => {
    const m = await s.call("POST", "/v1/monitors", http("unserved", { regions: ["scl"] }));
    expect(m.body.health).toBe("no-probe");
    const loc = await s.call("POST", "/v1/private-locations", { name: "scl-probe", region: "scl" });
    expect((await s.call("GET", `/v1/monitors/${m.body.id}`)).body.health).toBe("no-data");
    await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey);
    expect((await s.call("GET", `/v1/monitors/${m.body.id}`)).body.health).toBe("ok");
    expect((await s.call("PATCH", `/v1/monitors/${m.body.id}`, { active: false })).body.health).toBe("paused");
  });

  it("an invalid channel config is refused naming the field", async () => {
    const r = await s.call("POST", "/v1/channels", { name: "bad", kind: "webhook", config: { url: "not a url" } });
    expect(r.status).toBe(400);
    expect(r.body.error.issues[0].path).toBe("config.url");
    const k = await s.call("POST", "/v1/channels", { name: "bad", kind: "carrier-pigeon", config: {} });
    expect(k.body.error.issues[0].path).toBe("kind");
  });

  it("linking monitors with a bad list is 400 naming the field, and the links stay as they were", async () => {
    const ch = await s.call("POST", "/v1/channels", { name: "links-hook", kind: "webhook", config: { url: "http://127.0.0.1:9/l" } });
    const r = await s.call("PUT", `/v1/channels/${ch.body.id}/monitors`, { monitors: ["not-an-id"] });
    expect(r.status).toBe(400);
    expect(r.body.error.issues[0].path).toBe("monitors.0");
    expect((await s.call("GET", `/v1/channels/${ch.body.id}`)).body.monitors ?? []).toEqual([]);
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
    expect(first.body).toEqual({ accepted: 3, duplicates: 0, ignored: 0, refused: 0, queued: true });
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
    expect(summary.body.health).toBe("ok");
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

  it("a result from an hour in the future is refused and said so; one 10 s ahead (clock skew) is stored", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "ahead", region: "scl" });
    const m = await s.call("POST", "/v1/monitors", http("scl-mon", { regions: ["scl"] }));
    const result = (ahead: number, status: string) => {
      const at = Date.now() + ahead;
      return { id: ulid(), monitorId: m.body.id, cronTimestamp: at, startedAt: at, status, latencyMs: 1, attempts: 1 };
    };
    const reply = await s.call(
      "POST",
      "/v1/probe/results",
      { results: [result(10_000, "success"), result(3_600_000, "error")] },
      loc.body.serviceKey,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ accepted: 1, duplicates: 0, ignored: 0, refused: 1 });
    const rows = await s.database.db.select().from(checkResult).where(eq(checkResult.monitorId, m.body.id));
    expect(rows.map((r) => r.status)).toEqual(["success"]);
    // The future error did not pin the location's status.
    const [status] = await s.database.db.select().from(monitorLocationStatus).where(eq(monitorLocationStatus.monitorId, m.body.id));
    expect(status!.status).toBe("success");
  });

  it("an over-long message in a result is 400 naming the field and the limit, and nothing is stored", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "chatty", region: "bog" });
    const m = await s.call("POST", "/v1/monitors", http("bog-mon", { regions: ["bog"] }));
    const at = Date.UTC(2026, 10, 22, 12);
    const base = { monitorId: m.body.id, cronTimestamp: at, startedAt: at, status: "error", latencyMs: 1, attempts: 1 };
    const long = "x".repeat(2001);
    const reply = await s.call(
      "POST",
      "/v1/probe/results",
      {
        results: [
          { ...base, id: ulid(), errorMessage: long },
          { ...base, id: ulid(), cronTimestamp: at + 60_000, assertions: [{ kind: "textBody", ok: false, message: long }] },
        ],
      },
      loc.body.serviceKey,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.issues).toEqual(
      expect.arrayContaining([
        { path: "results.0.errorMessage", message: "must be at most 2000 characters" },
        { path: "results.1.assertions.0.message", message: "must be at most 2000 characters" },
      ]),
    );
    expect(await s.database.db.select().from(checkResult).where(eq(checkResult.monitorId, m.body.id))).toHaveLength(0);
  });

  it("a deleted location's probe is refused on the very next request", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "gone", region: "ams" });
    expect((await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey)).status).toBe(200);
    expect((await s.call("DELETE", `/v1/private-locations/${loc.body.id}`)).status).toBe(204);
    expect((await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey)).status).toBe(401);
    const [row] = await s.database.db.select().from(privateLocation).where(eq(privateLocation.id, loc.body.id));
    expect(row!.deletedAt).not.toBeNull();
  });

  it("a deleted location's results batch is refused on the very next batch and stores nothing, though its earlier batches were stored", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "gone-sender", region: "otp" });
    const m = await s.call("POST", "/v1/monitors", http("otp-mon", { regions: ["otp"] }));
    const result = successOf(m.body.id);
    const first = await s.call("POST", "/v1/probe/results", { results: [result(60_000)] }, loc.body.serviceKey);
    expect(first.body.accepted).toBe(1);
    expect((await s.call("DELETE", `/v1/private-locations/${loc.body.id}`)).status).toBe(204);
    for (const slot of [120_000, 180_000]) {
      const next = await s.call("POST", "/v1/probe/results", { results: [result(slot)] }, loc.body.serviceKey);
      expect(next.status).toBe(401);
      expect(next.body.error.code).toBe("unauthorized");
    }
    const rows = await s.database.db.select().from(checkResult).where(eq(checkResult.monitorId, m.body.id));
    expect(rows.map((r) => r.cronTimestamp)).toEqual([60_000]);
    const [row] = await s.database.db.select().from(privateLocation).where(eq(privateLocation.id, loc.body.id));
    expect(row!.online).toBe(false);
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

  it("a probe cannot answer a run asked of another location or workspace", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "asked", region: "yul" });
    const m = await s.call("POST", "/v1/monitors", http("yul-mon", { regions: ["yul"], timeout: "2s" }));
    const other = await otherWorkspace();
    const intruder = await other.call("POST", "/v1/private-locations", { name: "intruder", region: "yul" });
    const sibling = await s.call("POST", "/v1/private-locations", { name: "sibling", region: "yyz" });
    const forged = { status: "success", latencyMs: 1, attempts: 1 };
    const probe = (async () => {
      for (let i = 0; i < 20; i++) {
        const w = await s.call("GET", "/v1/probe/wait?etag=x&timeout=3000", undefined, loc.body.serviceKey);
        for (const run of w.body.runs) {
          const byOther = await s.call("POST", `/v1/probe/runs/${run.runId}`, forged, intruder.body.serviceKey);
          const bySibling = await s.call("POST", `/v1/probe/runs/${run.runId}`, forged, sibling.body.serviceKey);
          expect([byOther.status, bySibling.status]).toEqual([404, 404]);
          expect(byOther.body.error.code).toBe("not_found");
          const real = { status: "error", latencyMs: 3, attempts: 1, errorMessage: "connection refused" };
          expect((await s.call("POST", `/v1/probe/runs/${run.runId}`, real, loc.body.serviceKey)).status).toBe(204);
          return;
        }
      }
    })();
    const r = await s.call("POST", `/v1/monitors/${m.body.id}/trigger`);
    await probe;
    expect(r.body.result).toMatchObject({ status: "error", errorMessage: "connection refused" });
    await other.close();
  });

  it("a deleted monitor's results are refused on the very next batch", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "del-probe", region: "bog" });
    const m = await s.call("POST", "/v1/monitors", http("soon-gone", { regions: ["bog"] }));
    const result = successOf(m.body.id);
    const first = await s.call("POST", "/v1/probe/results", { results: [result(60_000)] }, loc.body.serviceKey);
    expect(first.body.accepted).toBe(1);
    await s.call("DELETE", `/v1/monitors/${m.body.id}`);
    const next = await s.call("POST", "/v1/probe/results", { results: [result(120_000)] }, loc.body.serviceKey);
    expect(next.body).toMatchObject({ accepted: 0, ignored: 1 });
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
    const metrics = await fetch(`${s.url}/metrics`, { headers: metricsHeaders() }).then((r) => r.text());
    expect(metrics).toMatch(/vigil_http_requests_total\{.*route="\/v1\/monitors".*\} \d+/);
    expect(metrics).toMatch(/vigil_ingest_rows_total\{outcome="accepted",service="server"\} \d+/);
    const doc = (await s.call("GET", "/openapi.json", undefined, null)).body;
    expect(doc.openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/monitors", "/v1/monitors/{id}", "/v1/probe/results", "/v1/channels/{id}/test"]),
    );
    expect(doc.paths["/v1/monitors"].post.requestBody.content["application/json"].schema).toBeDefined();
    // Each channel kind's config fields are documented.
    const channelBody = JSON.stringify(doc.paths["/v1/channels"].post.requestBody.content["application/json"].schema);
    for (const field of ["webhookUrl", "routingKey", "chatId", "topic", "apiKey", "phone", "email"])
      expect(channelBody).toContain(`"${field}"`);
  });

  it("audit rows name the API key that made the change", async () => {
    const rows = await s.database.db.select().from(auditLog).where(eq(auditLog.workspaceId, s.workspaceId));
    expect(rows.some((r) => r.action === "channel.create" && r.actor.startsWith("api-key:"))).toBe(true);
  });
});
