// Stored secrets are encrypted in the database, and everything that uses them still gets them whole.

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { NotifierEnv, signWebhook } from "@vigil/notifier";
import { createRateLimiter } from "@vigil/rate-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  createMonitor,
  createWorkspace,
  getChannel,
  getMonitor,
  monitorsForLocation,
  sendTestNotification,
  setLimits,
} from "../index";

const SIGNING = "signing-secret-5e0c1a77d2";
const CHANNEL_HEADER = "Bearer channel-header-secret-83b1";
const MONITOR_HEADER = "Bearer monitor-header-secret-c4d9";
const OTLP_KEY = "otlp-key-secret-77e0";

let t: TestDatabase;
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  received.push({ url: req.url ?? "", headers: req.headers, body });
  res.writeHead(200).end("ok");
});
beforeAll(async () => {
  t = await startTestDatabase();
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  receiver.close();
  await t?.close();
});

describe("secrets at rest", () => {
  it("a webhook's secrets and a monitor's secret header are not in the database files, yet alerts and probes get them", async () => {
    const ws = await createWorkspace(t.db, { name: "acme" }, "operator");
    await setLimits(t.db, ws.id, "unlimited", "operator");
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/path-secret-19fa`;
    const channel = await createChannel(
      t.db,
      ws.id,
      { name: "ops", kind: "webhook", config: { url: hook, secret: SIGNING, headers: { authorization: CHANNEL_HEADER } } },
      "operator",
    );
    const monitor = await createMonitor(
      t.db,
      ws.id,
      {
        name: "api",
        kind: "http",
        frequency: "1m",
        regions: ["ams"],
        request: { url: "https://api.example.com/health", headers: { authorization: MONITOR_HEADER } },
        openTelemetry: { endpoint: "https://otlp.example.com/v1/metrics", headers: { "x-api-key": OTLP_KEY } },
      },
      "operator",
    );

    expect(t.onDisk("https://api.example.com/health")).toBe(true);
    for (const secret of [SIGNING, CHANNEL_HEADER, MONITOR_HEADER, OTLP_KEY, "path-secret-19fa"])
      expect(t.onDisk(secret), secret).toBe(false);

    // The API's views keep redacting.
    expect(JSON.stringify(await getChannel(t.db, ws.id, channel.id))).not.toContain(SIGNING);
    expect(JSON.stringify(await getMonitor(t.db, ws.id, monitor.id))).not.toContain(MONITOR_HEADER);

    // A delivery reaches the stored URL with the stored header and signature.
    const sent = await sendTestNotification(t.db, ws.id, channel.id, "operator", {
      env: NotifierEnv.parse({}),
      egress: undefined,
      limiter: createRateLimiter(null),
    });
    expect(sent.ok).toBe(true);
    const [req] = received;
    expect(req!.url).toBe("/hooks/path-secret-19fa");
    expect(req!.headers.authorization).toBe(CHANNEL_HEADER);
    const timestamp = Number(req!.headers["x-vigil-timestamp"]);
    expect(req!.headers["x-vigil-signature"]).toBe(signWebhook(SIGNING, timestamp, req!.body));

    // The probe receives the header it must send.
    const [probeMonitor] = await monitorsForLocation(t.db, { workspaceId: ws.id, region: "ams" });
    expect(probeMonitor).toMatchObject({
      check: { headers: { authorization: MONITOR_HEADER } },
      openTelemetry: { headers: { "x-api-key": OTLP_KEY } },
    });
  });
});
