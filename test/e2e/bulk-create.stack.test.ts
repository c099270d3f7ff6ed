// The probe's own lateness is never an alert: 10,000 monitors created at once against healthy loopback targets.
import { statusEvent } from "@vigil/db-schema";
import { freePort, metricsHeaders } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookChannel, type Stack, startStack, TcpTarget, until, WebhookReceiver } from "./harness";

const TOTAL = 10_000;
const BATCH = 1_000;

describe("monitors created in bulk", () => {
  let stack: Stack;
  const healthy = [new TcpTarget(), new TcpTarget(), new TcpTarget(), new TcpTarget()];
  const hook = new WebhookReceiver();

  beforeAll(async () => {
    await Promise.all([...healthy.map((t) => t.open(0)), hook.start()]);
    stack = await startStack(["iad"]);
  }, 300_000);
  afterAll(async () => {
    await stack?.close();
    await Promise.all([...healthy.map((t) => t.close()), hook.stop()]);
  });

  it("10,000 monitors created at once against healthy targets change no status, and a really dead target among them still alerts within one interval + retries", {
    timeout: 420_000,
  }, async () => {
    await hookChannel(stack, hook);
    const deadPort = await freePort(); // nothing listens there
    const entry = (i: number) => ({
      key: `m${i}`,
      kind: "tcp",
      frequency: "30s",
      regions: ["iad"],
      retry: 1,
      timeout: "5s",
      request: { host: "127.0.0.1", port: healthy[i % healthy.length]!.port },
    });
    const batches: unknown[][] = [];
    for (let i = 0; i < TOTAL - 1; i += BATCH) batches.push(Array.from({ length: Math.min(BATCH, TOTAL - 1 - i) }, (_, j) => entry(i + j)));
    // The dead target is created in the middle of the burst.
    const dead = { ...entry(0), key: "dead", channels: ["hook"], request: { host: "127.0.0.1", port: deadPort } };
    batches.splice(5, 0, [dead]);
    let deadId = 0;
    let deadCreatedAt = 0;
    const started = Date.now();
    await Promise.all(
      batches.map(async (monitors) => {
        const res = await stack.api("POST", "/v1/monitors/batch", { monitors });
        expect(res.status).toBe(201);
        if (monitors.length === 1) {
          deadId = res.body.monitors[0].id;
          deadCreatedAt = Date.now();
        }
      }),
    );
    const createdIn = Date.now() - started;
    // One interval (30 s) plus the retry (5 s timeout) plus the way through server and workflows.
    await until("the dead target's alert", () => hook.of(deadId).includes("error"), 90_000, 100);
    const alertAfter = Date.now() - deadCreatedAt;
    expect(alertAfter).toBeLessThan(30_000 + 5_000 + 15_000);
    // Every monitor has been checked at least once (one interval after the last creation), and a little more.
    await until(
      "a result for every monitor",
      async () =>
        Number((await stack.db.$client.execute("select count(distinct monitor_id) as n from monitor_location_status")).rows[0]!.n) >= TOTAL,
      120_000,
      1000,
    );
    await new Promise((r) => setTimeout(r, 15_000));
    const events = await stack.db.select({ monitorId: statusEvent.monitorId, status: statusEvent.status }).from(statusEvent);
    expect(events).toEqual([{ monitorId: deadId, status: "error" }]);
    expect(hook.deliveries.map((d) => [d.monitorId, d.status])).toEqual([[deadId, "error"]]);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.probes[0]!.env.PORT}/metrics`, { headers: metricsHeaders() })).text();
    const skipped = metrics.split("\n").filter((l) => l.startsWith("vigil_probe_slots_skipped_total"));
    console.info(
      `bulk create: ${TOTAL} monitors in ${createdIn} ms; dead target alerted after ${alertAfter} ms; ${skipped.join("; ") || "no slot skipped"}`,
    );
  });
});
