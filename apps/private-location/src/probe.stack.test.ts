// End to end: the real server and the real probe as processes, a real sqld, loopback targets.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { metricsHeaders } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attributesOf,
  type CollectedExport,
  metricsIn,
  otlpCollector,
  type ProbeProc,
  removeDir,
  type Stack,
  spawnApp,
  startProbe,
  startStack,
  tcpTarget,
  waitFor,
} from "./test-harness";

const SLOT = 30_000;
const probeEnv = (stack: Stack): Record<string, string> => ({
  SERVICE_KEY: stack.serviceKey,
  SERVICE_INGEST_URL: stack.serverUrl,
  PROBE_SEND_INTERVAL_MS: "200",
  PROBE_COMMIT_MS: "10",
  PROBE_WAIT_MS: "2000",
  PROBE_MAX_BACKOFF_MS: "1000",
  PROBE_OTEL_INTERVAL_MS: "500",
});

/** Ids of every result line in the probe's outbox segments. */
/** The (monitor, slot) of each result waiting in the outbox. */
function outboxSlots(dataDir: string): string[] {
  const dir = join(dataDir, "outbox");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n"))
    .flatMap((line) => {
      try {
        const r = JSON.parse(line) as { monitorId: number; cronTimestamp: number };
        return [`${r.monitorId}:${r.cronTimestamp}`];
      } catch {
        return []; // a torn last line
      }
    });
}

describe("the probe against the real server", () => {
  let stack: Stack;
  let probe: ProbeProc;
  let target: Awaited<ReturnType<typeof tcpTarget>>;
  let collector: Awaited<ReturnType<typeof otlpCollector>>;
  const monitors: { id: number; createdAt: number }[] = [];
  let otelMonitorId = 0;
  let removed: { id: number; goneAt: number; nextSlot: number } | undefined;

  beforeAll(async () => {
    [stack, target, collector] = await Promise.all([startStack("iad"), tcpTarget(), otlpCollector()]);
    probe = await startProbe(probeEnv(stack));
  });

  afterAll(async () => {
    await probe?.kill("SIGKILL");
    if (probe) removeDir(probe.dataDir);
    await Promise.all([stack?.close(), target?.close(), collector?.close()]);
  });

  it("refuses to start without SERVICE_KEY, naming the variable in one line", async () => {
    const proc = spawnApp("private-location", { SERVICE_KEY: "", SERVICE_INGEST_URL: stack.serverUrl });
    expect(await proc.exit).toBe(1);
    expect(proc.lines).toEqual(["private-location: invalid environment: SERVICE_KEY is required but not set"]);
  });

  it("says plainly that an unknown SERVICE_KEY is not known to the server, and keeps retrying", async () => {
    const stranger = await startProbe({ ...probeEnv(stack), SERVICE_KEY: "vgl_loc_thiskeywasnevercreated" });
    try {
      const rejected = () => stranger.logs().filter((l) => /^SERVICE_KEY is not known to the server/.test(String(l.msg)));
      await waitFor("two rejected tries", () => rejected().length >= 2, 15_000);
      expect(rejected()[0]).toMatchObject({ level: 50, reason: "unknown-key" });
      expect(stranger.running).toBe(true);
      expect((await stranger.status()).syncError).toMatchObject({ reason: "unknown-key" });
    } finally {
      await stranger.kill("SIGKILL");
      removeDir(stranger.dataDir);
    }
  });

  it("picks up monitors created through the API within seconds and runs each at its slots", { timeout: 60_000 }, async () => {
    for (let i = 0; i < 6; i++) {
      const res = await stack.api("POST", "/v1/monitors", {
        name: `tcp ${i}`,
        kind: "tcp",
        frequency: "30s",
        regions: ["iad"],
        retry: 0,
        request: { host: "127.0.0.1", port: target.port },
      });
      expect(res.status).toBe(201);
      monitors.push({ id: res.body.id, createdAt: Date.now() });
    }
    const http = await stack.api("POST", "/v1/monitors", {
      name: "site",
      kind: "http",
      frequency: "30s",
      regions: ["iad"],
      retry: 0,
      request: { url: `${collector.url}/health` },
      openTelemetry: { endpoint: `${collector.url}/v1/metrics`, headers: { Authorization: "Bearer otel-token" } },
    });
    expect(http.status).toBe(201);
    otelMonitorId = http.body.id;
    monitors.push({ id: otelMonitorId, createdAt: Date.now() });

    await waitFor("the probe to schedule all 7", async () => (await probe.status()).monitors === 7, 10_000);
    // Each runs at its first slot after creation: within one period.
    await waitFor(
      "a result of every monitor",
      async () => {
        const ids = new Set((await stack.results()).map((r) => r.monitorId));
        return monitors.every((m) => ids.has(m.id));
      },
      SLOT + 10_000,
      500,
    );
    const rows = await stack.results();
    for (const m of monitors) {
      const first = Math.min(...rows.filter((r) => r.monitorId === m.id).map((r) => r.cronTimestamp));
      expect(first - m.createdAt).toBeLessThanOrEqual(SLOT + 5000);
    }
    // Offsets spread the slots: seven monitors do not share one.
    expect(new Set(rows.map((r) => r.cronTimestamp % SLOT)).size).toBeGreaterThan(1);
    expect(target.connections()).toBeGreaterThanOrEqual(6);

    // First checks start late on purpose and are not the probe's lag: it is measured from the first check on its own slot.
    await waitFor("a check on its own slot", async () => (await probe.status()).lagMs.samples > 0, SLOT + 5000, 500);
    const status = await probe.status();
    expect(status).toMatchObject({ location: { id: stack.locationId, region: "iad" }, monitors: 7, syncError: null });
    expect(status.lagMs.p99).toBeGreaterThanOrEqual(0);
    expect(status.lastSentAt).toBeGreaterThan(0);
    const metrics = await (await fetch(`${probe.url}/metrics`, { headers: metricsHeaders() })).text();
    for (const series of [
      'vigil_probe_checks_total{kind="tcp",status="success"',
      "vigil_probe_schedule_lag_seconds_bucket",
      "vigil_probe_outbox_depth",
      "vigil_probe_monitors",
      "vigil_probe_results_sent_total",
    ]) {
      expect(metrics).toContain(series);
    }
  });

  it("answers an on-demand run (trigger) straight away, through the server", async () => {
    const before = target.connections();
    const res = await stack.api("POST", `/v1/monitors/${monitors[0]!.id}/trigger`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ location: { id: stack.locationId }, result: { status: "success", attempts: 1 } });
    expect(target.connections()).toBeGreaterThan(before);
    await waitFor(
      "the run to be logged",
      () => probe.logs().some((l) => l.msg === "on-demand run answered" && l.monitorId === monitors[0]!.id),
      5000,
    );
  });

  it("exports OTLP metrics to the monitor's collector with its headers", async () => {
    const posted = (): CollectedExport[] => collector.received.filter((r) => r.path === "/v1/metrics");
    await waitFor(
      "an export holding the HTTP monitor's duration",
      () =>
        metricsIn(posted()).some(
          (m) =>
            m.name === "vigil.check.duration" &&
            m.histogram!.dataPoints.some((p) => attributesOf(p)["vigil.monitor.id"] === String(otelMonitorId)),
        ),
      10_000,
    );
    expect(posted().every((r) => r.headers.authorization === "Bearer otel-token")).toBe(true);
    expect(metricsIn(posted()).map((m) => m.name)).toContain("vigil.checks");
  });

  it("drops a deleted monitor within seconds", async () => {
    const victim = monitors.pop()!; // the HTTP one; the TCP ones stay for the outage test
    expect((await stack.api("DELETE", `/v1/monitors/${victim.id}`)).status).toBeLessThan(300);
    await waitFor("the probe to drop it", async () => (await probe.status()).monitors === 6, 10_000);
    const last = Math.max(...(await stack.results()).filter((r) => r.monitorId === victim.id).map((r) => r.cronTimestamp));
    removed = { id: victim.id, goneAt: Date.now(), nextSlot: last + SLOT };
  });

  it("loses no result when the server is gone for 20 s and the probe is SIGKILLed meanwhile", { timeout: 90_000 }, async () => {
    const serverDownAt = Date.now();
    await stack.stopServer("SIGKILL");
    // Checks go on; results wait in the outbox (within one period every monitor has run at least once).
    await waitFor("results kept while the server is away", async () => (await probe.status()).outbox.depth >= 2, 40_000, 250);
    const kept = outboxSlots(probe.dataDir);
    const killedAt = Date.now();
    await probe.kill("SIGKILL");
    probe = await startProbe(probeEnv(stack), { dataDir: probe.dataDir });
    const readyAt = Date.now();
    // Restarted without the server, it runs the monitors of its last sync.
    expect((await probe.status()).monitors).toBe(6);
    await new Promise((r) => setTimeout(r, Math.max(0, serverDownAt + 20_000 - Date.now())));
    await stack.startServer();
    const serverUpAt = Date.now();
    await waitFor("the outbox to drain", async () => (await probe.status()).outbox.depth === 0, 20_000, 250);
    // Also let the deleted monitor's next slot pass, so that its absence means something.
    await new Promise((r) => setTimeout(r, Math.max(0, removed!.nextSlot + 3000 - Date.now())));
    await waitFor("the outbox to drain", async () => (await probe.status()).outbox.depth === 0, 10_000, 250);
    const checkedUntil = Date.now() - 3000; // slots before this have run, been committed and sent

    const rows = await stack.results();
    const stored = new Set(rows.map((r) => r.slot));
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.filter((id) => !stored.has(id))).toEqual([]);
    for (const m of monitors) {
      const slots = rows.filter((r) => r.monitorId === m.id).map((r) => r.cronTimestamp);
      expect(new Set(slots).size).toBe(slots.length); // once per slot
      const first = Math.min(...slots);
      const expected: number[] = [];
      for (let s = first; s <= checkedUntil; s += SLOT) {
        // While the probe itself was down (and a moment around it) a slot may or may not have run.
        if (s > killedAt - 1000 && s < readyAt + 1000) continue;
        expected.push(s);
      }
      expect(slots.filter((s) => expected.includes(s)).sort()).toEqual(expected);
    }
    // Slots that fell inside the outage are there too (not just before and after it).
    const duringOutage = rows.filter(
      (r) => monitors.some((m) => m.id === r.monitorId) && r.cronTimestamp > serverDownAt - 2000 && r.cronTimestamp < serverUpAt,
    );
    expect(duringOutage.length).toBeGreaterThanOrEqual(2);
    // And the deleted monitor ran no slot after the probe dropped it.
    expect(removed!.nextSlot).toBeLessThan(checkedUntil);
    expect(rows.filter((r) => r.monitorId === removed!.id && r.cronTimestamp > removed!.goneAt)).toEqual([]);
  });
});
