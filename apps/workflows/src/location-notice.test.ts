import { createServer, type Server } from "node:http";
import { createChannel, createMonitor, markSilentLocations, touchLocation } from "@vigil/core";
import { httpMonitor, useTestDatabase, workspaceWithLocations } from "@vigil/core/testing";
import type { Db } from "@vigil/db-schema";
import { EgressPolicy } from "@vigil/egress";
import { NotifierEnv } from "@vigil/notifier";
import { createLogger } from "@vigil/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendLocationNotices } from "./housekeeping";

let db: Db;
useTestDatabase((t) => {
  db = t.db;
});

/** A loopback receiver keeping each request's path and JSON body. */
const received: { path: string; body: { text?: string; blocks?: unknown[] } }[] = [];
let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(raw) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** What a workflows process hands the sender; a fresh one stands for a restarted process. */
const workflows = () => ({
  db,
  logger: createLogger("workflows", "silent"),
  notifierEnv: NotifierEnv.parse({ DASHBOARD_URL: "https://vigil.example.com" }),
  egress: EgressPolicy.none,
  subscriberEgress: EgressPolicy.none,
  sending: <T>(send: () => Promise<T>) => send(),
});

describe("a private location gone silent", () => {
  it("is told once to the workspace's chat channel (not its webhook), and once when it reports again, across restarts", async () => {
    const { ws, locations } = await workspaceWithLocations(db, "silence", ["iad"]);
    const loc = locations[0]!;
    await createMonitor(db, ws, httpMonitor("api", { frequency: "30s" }), "u");
    await createChannel(db, ws, { name: "ops chat", kind: "slack", config: { webhookUrl: `${base}/slack` } }, "u");
    await createChannel(db, ws, { name: "automation", kind: "webhook", config: { url: `${base}/hook` } }, "u");
    const t0 = Date.now();
    await touchLocation(db, loc.id, t0 - 200_000);
    // Online and heard from: nothing to tell.
    expect(await sendLocationNotices(workflows(), t0 - 199_000)).toBe(0);
    expect(await markSilentLocations(db, t0)).toEqual([loc.id]);

    expect(await sendLocationNotices(workflows(), t0)).toBe(1);
    expect(await sendLocationNotices(workflows(), t0 + 30_000)).toBe(0);
    expect(received.map((r) => r.path)).toEqual(["/slack"]);
    const silent = received[0]!.body.text!;
    expect(silent).toContain("Private location iad is silent: none of its probes report");
    expect(silent).not.toMatch(/is down/);
    expect(JSON.stringify(received[0]!.body.blocks)).toContain(`https://vigil.example.com/w/${ws}/locations/${loc.id}`);
    expect(JSON.stringify(received[0]!.body.blocks)).toContain(new Date(t0 - 200_000).toISOString());

    // Its probe polls again: one notice that it is back, then nothing more.
    await touchLocation(db, loc.id, t0 + 60_000);
    expect(await sendLocationNotices(workflows(), t0 + 61_000)).toBe(1);
    expect(await sendLocationNotices(workflows(), t0 + 90_000)).toBe(0);
    expect(received.map((r) => r.path)).toEqual(["/slack", "/slack"]);
    expect(received[1]!.body.text).toContain("Private location iad reports again");

    // A second silence is a new one: told again.
    expect(await markSilentLocations(db, t0 + 300_000)).toEqual([loc.id]);
    expect(await sendLocationNotices(workflows(), t0 + 300_000)).toBe(1);
    expect(received).toHaveLength(3);
  });
});
