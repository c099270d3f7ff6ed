// A stored secret follows its destination: "***" keeps it only while the URL's origin is unchanged.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createPrivateLocation, testMonitorDraft, ValidationError } from "@vigil/core";
import { auditLog, monitor, notificationChannel } from "@vigil/db-schema";
import { createRedis, ProbeBus } from "@vigil/queue";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

/** A loopback HTTP server that keeps the headers of every request it gets. */
async function recorder(): Promise<{ origin: string; received: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const received: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let s: TestServer;
let own: Awaited<ReturnType<typeof recorder>>;
let attacker: Awaited<ReturnType<typeof recorder>>;
beforeAll(async () => {
  [s, own, attacker] = await Promise.all([startTestServer(), recorder(), recorder()]);
});
afterAll(async () => {
  await Promise.all([s?.close(), own?.close(), attacker?.close()]);
});

const moved = (from: string, to: string) => `the URL's origin changed (${from} → ${to})`;
const rowOf = async (id: number) => (await s.database.db.select().from(monitor).where(eq(monitor.id, id)))[0]!;
const channelRowOf = async (id: number) =>
  (await s.database.db.select().from(notificationChannel).where(eq(notificationChannel.id, id)))[0]!;

describe("monitor request headers", () => {
  it("*** keeps a secret header for the same origin, and the probe is given the stored value", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "origin-probe", region: "gru" });
    const m = await s.call("POST", "/v1/monitors", {
      key: "same-origin",
      kind: "http",
      frequency: "1m",
      regions: ["gru"],
      request: { url: `${own.origin}/health`, headers: { Authorization: "Bearer own-token" } },
    });
    expect(m.status).toBe(201);
    const p = await s.call("PATCH", `/v1/monitors/${m.body.id}`, {
      request: { url: `${own.origin}/other?x=1`, headers: { Authorization: "***" } },
    });
    expect(p.status).toBe(200);
    const probe = await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey);
    const check = probe.body.monitors.find((x: { id: number }) => x.id === m.body.id).check;
    expect(check).toMatchObject({ url: `${own.origin}/other?x=1`, headers: { Authorization: "Bearer own-token" } });
  });

  it("*** sent with a new origin is refused naming the header, and the stored monitor is unchanged", async () => {
    const m = await s.call("POST", "/v1/monitors", {
      key: "moved",
      kind: "http",
      frequency: "1m",
      regions: ["iad"],
      request: { url: `${own.origin}/health`, headers: { Authorization: "Bearer own-token", "X-Trace": "on" } },
    });
    const before = await rowOf(m.body.id);
    for (const url of [`${attacker.origin}/`, `${own.origin.replace("http:", "https:")}/health`]) {
      const p = await s.call("PATCH", `/v1/monitors/${m.body.id}`, {
        request: { url, headers: { Authorization: "***", "X-Trace": "on" } },
      });
      expect(p.status).toBe(400);
      expect(p.body.error.code).toBe("invalid_input");
      expect(p.body.error.issues).toEqual([
        { path: "request.headers.Authorization", message: expect.stringContaining(moved(own.origin, new URL(url).origin)) },
      ]);
      expect(p.body.error.message).toContain('enter the secret again; "***" keeps a stored secret only for the same origin');
    }
    expect(await rowOf(m.body.id)).toEqual(before);
    // Re-entering the secret for the new host is an ordinary edit.
    const ok = await s.call("PATCH", `/v1/monitors/${m.body.id}`, {
      request: { url: `${attacker.origin}/`, headers: { Authorization: "Bearer for-the-new-host" } },
    });
    expect(ok.status).toBe(200);
    expect((await rowOf(m.body.id)).headers).toEqual({ Authorization: "Bearer for-the-new-host" });
  });

  it("Test now of a draft with *** has no stored secret to keep and is refused; the target receives nothing", async () => {
    const before = attacker.received.length;
    const r = await s.call("POST", "/v1/monitors/test", {
      kind: "http",
      frequency: "1m",
      regions: ["iad"],
      request: { url: `${attacker.origin}/`, headers: { Authorization: "***" } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.issues[0]).toEqual({ path: "request.headers.Authorization", message: expect.stringContaining("none is stored") });
    expect(attacker.received.length).toBe(before);
  });

  it("Test now of an edited monitor with *** and a new origin is refused before any probe is asked", async () => {
    const m = await s.call("POST", "/v1/monitors", {
      key: "test-now-moved",
      kind: "http",
      frequency: "1m",
      regions: ["iad"],
      request: { url: `${own.origin}/health`, headers: { Authorization: "Bearer own-token" } },
    });
    await createPrivateLocation(s.database.db, s.workspaceId, { name: "iad-probe-for-test-now", region: "iad" }, "operator");
    const redis = createRedis("redis://127.0.0.1:6379", "producer");
    const sub = createRedis("redis://127.0.0.1:6379", "subscriber");
    try {
      const bus = new ProbeBus(redis, sub, `t-origin-${m.body.id}`);
      // What the edit form sends when only the URL changed: the secret field left as stored.
      const draft = {
        kind: "http",
        frequency: "1m",
        regions: ["iad"],
        request: { url: `${attacker.origin}/steal`, headers: { Authorization: "***" } },
      };
      const refused = await testMonitorDraft(s.database.db, bus, s.workspaceId, draft, m.body.id, "user:attacker").catch((e) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect(refused.issues[0]).toEqual({
        path: "request.headers.Authorization",
        message: expect.stringContaining(moved(own.origin, attacker.origin)),
      });
      expect(attacker.received.every((h) => h.authorization !== "Bearer own-token")).toBe(true);
    } finally {
      redis.disconnect();
      sub.disconnect();
    }
  });

  it("a Test now run is in the audit log with its actor, target origin and outcome", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "audit-probe", region: "scl" });
    const running = s.call("POST", "/v1/monitors/test", {
      kind: "http",
      frequency: "1m",
      regions: ["scl"],
      timeout: "2s",
      request: { url: `${own.origin}/path?token=never-logged`, headers: { Accept: "text/plain" } },
    });
    // Answered the way a probe answers: its long poll hands out the run, it posts the result.
    let runs: { runId: string }[] = [];
    for (let i = 0; i < 20 && runs.length === 0; i++) {
      runs = (await s.call("GET", "/v1/probe/wait?timeout=500", undefined, loc.body.serviceKey)).body.runs;
    }
    const answer = { status: "success", latencyMs: 7, attempts: 1, statusCode: 200 };
    expect((await s.call("POST", `/v1/probe/runs/${runs[0]!.runId}`, answer, loc.body.serviceKey)).status).toBe(204);
    expect((await running).status).toBe(200);
    const log = await s.call("GET", "/v1/audit-log?limit=5");
    const entry = log.body.entries.find((e: { action: string }) => e.action === "monitor.test");
    expect(entry).toMatchObject({
      actor: expect.stringMatching(/^api-key:/),
      targetType: "monitor",
      metadata: { kind: "http", target: own.origin, outcome: "success", statusCode: 200 },
    });
    expect(JSON.stringify(entry)).not.toContain("never-logged");
  });
});

describe("OTLP export headers", () => {
  const otel = (endpoint: string, Authorization: string) => ({ endpoint, headers: { Authorization } });

  it("*** keeps the OTLP header for the same collector origin; a new origin is refused and nothing is written", async () => {
    const loc = await s.call("POST", "/v1/private-locations", { name: "otlp-probe", region: "syd" });
    const m = await s.call("POST", "/v1/monitors", {
      key: "otlp",
      kind: "http",
      frequency: "1m",
      regions: ["syd"],
      request: { url: `${own.origin}/health` },
      openTelemetry: otel(`${own.origin}/v1/metrics`, "Bearer otel-token"),
    });
    expect(
      (await s.call("PATCH", `/v1/monitors/${m.body.id}`, { openTelemetry: otel(`${own.origin}/otlp/v1/metrics`, "***") })).status,
    ).toBe(200);
    const probe = await s.call("GET", "/v1/probe/monitors", undefined, loc.body.serviceKey);
    expect(probe.body.monitors.find((x: { id: number }) => x.id === m.body.id).openTelemetry).toEqual(
      otel(`${own.origin}/otlp/v1/metrics`, "Bearer otel-token"),
    );

    const before = await rowOf(m.body.id);
    const p = await s.call("PATCH", `/v1/monitors/${m.body.id}`, { openTelemetry: otel(`${attacker.origin}/v1/metrics`, "***") });
    expect(p.status).toBe(400);
    expect(p.body.error.issues).toEqual([
      { path: "openTelemetry.headers.Authorization", message: expect.stringContaining(moved(own.origin, attacker.origin)) },
    ]);
    expect(await rowOf(m.body.id)).toEqual(before);
  });
});

describe("webhook channel secrets", () => {
  const config = (url: string, auth: string, secret: string) => ({ url, headers: { Authorization: auth }, secret });

  it("*** keeps the header and signing secret for the same origin, and the test message carries them there", async () => {
    const c = await s.call("POST", "/v1/channels", {
      name: "own-hook",
      kind: "webhook",
      config: config(`${own.origin}/hook`, "Bearer hook-token", "signing-secret-0123456789"),
    });
    expect(c.status).toBe(201);
    const p = await s.call("PATCH", `/v1/channels/${c.body.id}`, { config: config(`${own.origin}/hook/v2`, "***", "***") });
    expect(p.status).toBe(200);
    const before = own.received.length;
    const t = await s.call("POST", `/v1/channels/${c.body.id}/test`);
    expect(t.body).toMatchObject({ ok: true, status: 200 });
    expect(own.received.slice(before)).toEqual([
      expect.objectContaining({ authorization: "Bearer hook-token", "x-vigil-signature": expect.stringMatching(/^sha256=/) }),
    ]);
  });

  it("*** sent with a new webhook origin is refused naming each secret; nothing is written and the new host hears nothing", async () => {
    const c = await s.call("POST", "/v1/channels", {
      name: "moved-hook",
      kind: "webhook",
      config: config(`${own.origin}/hook`, "Bearer hook-token", "signing-secret-0123456789"),
    });
    const before = await channelRowOf(c.body.id);
    const p = await s.call("PATCH", `/v1/channels/${c.body.id}`, { config: config(`${attacker.origin}/`, "***", "***") });
    expect(p.status).toBe(400);
    expect(p.body.error.issues).toEqual([
      { path: "config.headers.Authorization", message: expect.stringContaining(moved(own.origin, attacker.origin)) },
      { path: "config.secret", message: expect.stringContaining(moved(own.origin, attacker.origin)) },
    ]);
    expect(await channelRowOf(c.body.id)).toEqual(before);
    const heard = attacker.received.length;
    await s.call("POST", `/v1/channels/${c.body.id}/test`);
    expect(attacker.received.length).toBe(heard);
  });

  it("a channel test is in the audit log with its actor, target origin and outcome", async () => {
    const c = await s.call("POST", "/v1/channels", {
      name: "audited-hook",
      kind: "webhook",
      config: { url: `${own.origin}/audited?key=x` },
    });
    await s.call("POST", `/v1/channels/${c.body.id}/test`);
    const [row] = await s.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "channel.test"), eq(auditLog.targetId, String(c.body.id))));
    expect(row).toMatchObject({
      actor: expect.stringMatching(/^api-key:/),
      targetType: "channel",
      metadata: { kind: "webhook", target: own.origin, outcome: "delivered", statusCode: 200 },
    });
  });
});

describe("monitors as code", () => {
  it("apply with *** and a changed URL is refused naming the entry's header, for a dry run and a real one", async () => {
    const entry = (url: string, Authorization: string) => ({
      key: "applied",
      kind: "http",
      frequency: "1m",
      regions: ["iad"],
      request: { url, headers: { Authorization } },
    });
    expect((await s.call("POST", "/v1/monitors/apply", { monitors: [entry(`${own.origin}/a`, "Bearer applied-token")] })).status).toBe(200);
    const same = await s.call("POST", "/v1/monitors/apply", { monitors: [entry(`${own.origin}/a`, "***")], dryRun: true });
    expect(same.body).toMatchObject({ unchanged: ["applied"] });
    for (const dryRun of [true, false]) {
      const r = await s.call("POST", "/v1/monitors/apply", { monitors: [entry(`${attacker.origin}/a`, "***")], dryRun });
      expect(r.status).toBe(400);
      expect(r.body.error.issues).toEqual([
        { path: "monitors.0.request.headers.Authorization", message: expect.stringContaining(moved(own.origin, attacker.origin)) },
      ]);
    }
    const [row] = await s.database.db
      .select()
      .from(monitor)
      .where(and(eq(monitor.key, "applied"), eq(monitor.workspaceId, s.workspaceId)));
    expect(row).toMatchObject({ url: `${own.origin}/a`, headers: { Authorization: "Bearer applied-token" } });
  });
});
