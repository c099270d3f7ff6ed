import { heartbeatPing } from "@vigil/db-schema";
import { eq } from "drizzle-orm";
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
});
