// The truth audit: a scripted timeline on the real services (sqld, Redis, server, workflows, status page) with the
// test clock, the test posting each slot's results as the location's probe does. Then every place that reports the
// timeline is compared with the ground truth, each within one check interval: the API's SLA and uptime, `vigil
// report`, the status page's bars, incident durations, Prometheus counters and the delivery log.

import { type TestClock, testClock } from "@vigil/config/test-clock";
import { createComponent, createPrivateLocation, createStatusPage } from "@vigil/core";
import { metricsHeaders } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStatusPage, type StatusSite, startStatusPage } from "../../apps/status-page/src/testing";
import { hookChannel, runCli, type Stack, startStack, until, WebhookReceiver } from "../e2e/harness";

const SLOT = 30_000;
/** Slots in the timeline: 12 minutes of the services' time. */
const SLOTS = 24;
/** Slots of monitor "outage" that fail: a 2-minute outage. */
const OUTAGE = { from: 4, to: 7 };
/** Slots of monitor "maintained" inside its maintenance window; it fails in the first three of them. */
const MAINTENANCE = { from: 10, to: 13 };
const MAINTAINED_FAILS = { from: 10, to: 12 };
/** The slot of monitor "gap" no probe ran (the probe was killed for 10 s across it). */
const KILLED = 15;
/** The heartbeat pings every other slot (period 60 s, grace 30 s) but misses the ping of this slot. */
const MISSED_PING = 8;
const inRange = (i: number, r: { from: number; to: number }) => i >= r.from && i <= r.to;

const clock: TestClock = testClock();
const hook = new WebhookReceiver();
let stack: Stack;
let site: StatusSite;
let probeKey = "";
let locationId = 0;
/** The first slot's time (the services' clock). */
let S0 = 0;
const ids = { outage: 0, maintained: 0, gap: 0, heartbeat: 0 };
let pingUrl = "";

/** Results posted as the location's probe posts them (its key, the ingest route); ids are ULIDs. */
let ulidSeq = 0;
const ulid = (at: number) => {
  const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let t = at;
  let time = "";
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  let n = ++ulidSeq;
  let rand = "";
  for (let i = 0; i < 16; i++) {
    rand = CROCKFORD[n % 32]! + rand;
    n = Math.floor(n / 32);
  }
  return time + rand;
};

async function postResults(slot: number, results: { monitorId: number; ok: boolean }[]) {
  const cron = S0 + slot * SLOT;
  const res = await fetch(`http://127.0.0.1:${stack.server.env.PORT}/v1/probe/results`, {
    method: "POST",
    headers: { authorization: `Bearer ${probeKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      results: results.map((r) => ({
        id: ulid(cron),
        monitorId: r.monitorId,
        cronTimestamp: cron,
        startedAt: cron + 50,
        status: r.ok ? "success" : "error",
        latencyMs: r.ok ? 12 : 3,
        statusCode: r.ok ? 200 : 503,
        ...(r.ok ? {} : { errorMessage: "HTTP 503" }),
        attempts: 1,
      })),
    }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ accepted: results.length, refused: 0 });
}

/** Every stored result's effect has been evaluated (nothing pending), whatever the outcome. */
async function evaluated() {
  await until(
    "evaluation to catch up",
    async () => {
      const { rows } = await stack.db.$client.execute(
        "select count(*) as n from monitor_location_status s left join monitor_evaluation e on e.monitor_id = s.monitor_id where s.result_rowid > coalesce(e.through, 0)",
      );
      return Number(rows[0]!.n) === 0;
    },
    30_000,
    50,
  );
}

/** Moves the services' clock to `at` (never back). */
const clockTo = (at: number) => clock.advance(Math.max(0, at - clock.now()));

/** A Prometheus text's value for a series whose labels include all of `labels`. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const [, body, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? [];
    if (body === undefined) continue;
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(value);
  }
  return undefined;
}

describe("the truth audit: every place that reports a scripted timeline agrees with it", () => {
  beforeAll(async () => {
    await Promise.all([hook.start(), buildStatusPage()]);
    stack = await startStack([], { server: clock.env, workflows: { ...clock.env, PROBE_HEALTH_INTERVAL_MS: "1000" } });
    // The first slot a minute ahead of the real time, on a slot boundary: the clock only moves forward.
    S0 = Math.ceil((Date.now() + 60_000) / SLOT) * SLOT;
    await clockTo(S0 - 20_000);
    const location = await createPrivateLocation(stack.db, stack.workspaceId, { name: "Frankfurt", region: "iad" }, "operator");
    probeKey = location.key;
    locationId = location.location.id;
    await hookChannel(stack, hook);
    for (const key of ["outage", "maintained", "gap"] as const) {
      const made = await stack.api("POST", "/v1/monitors", {
        key,
        name: key,
        kind: "http",
        frequency: "30s",
        regions: ["iad"],
        retry: 0,
        channels: ["hook"],
        request: { url: `http://127.0.0.1:9/${key}` },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids[key] = made.body.id;
    }
    const hb = await stack.api("POST", "/v1/monitors", {
      key: "nightly",
      name: "nightly",
      kind: "heartbeat",
      channels: ["hook"],
      request: { period: "60s", grace: "30s" },
    });
    expect(hb.status, JSON.stringify(hb.body)).toBe(201);
    ids.heartbeat = hb.body.id;
    pingUrl = (await stack.api("GET", `/v1/heartbeats/${ids.heartbeat}`)).body.pingUrl;
    const window = await stack.api("POST", "/v1/maintenances", {
      title: "Database upgrade",
      message: "",
      startsAt: S0 + MAINTENANCE.from * SLOT,
      endsAt: S0 + (MAINTENANCE.to + 1) * SLOT - 1_000,
      monitors: [ids.maintained],
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    const page = await createStatusPage(stack.db, stack.workspaceId, { slug: "truth", title: "Truth" }, "operator");
    for (const key of ["outage", "maintained", "gap"] as const)
      await createComponent(stack.db, stack.workspaceId, page.id, { name: key, monitorId: ids[key] }, "operator");
    site = await startStatusPage({ ...stack.dbEnv, AUTH_SECRET: "truth-secret-0123456789abcdef", ...clock.env });

    // The timeline, slot by slot: the services' time 2 s into each slot, its results posted, evaluated.
    for (let i = 0; i < SLOTS; i++) {
      await clockTo(S0 + i * SLOT + 2_000);
      const results = [
        { monitorId: ids.outage, ok: !inRange(i, OUTAGE) },
        { monitorId: ids.maintained, ok: !inRange(i, MAINTAINED_FAILS) },
        ...(i === KILLED ? [] : [{ monitorId: ids.gap, ok: true }]),
      ];
      await postResults(i, results);
      if (i % 2 === 0 && i !== MISSED_PING) {
        const ping = await fetch(pingUrl, { method: "POST" });
        expect(ping.status).toBeLessThan(300);
      }
      await evaluated();
      // The heartbeat's deadline passes during the slot after the missed ping: let the workflows see it.
      if (i === MISSED_PING + 1) {
        await clockTo(S0 + i * SLOT + 12_000);
        await until("the missed heartbeat to be down", async () => hook.of(ids.heartbeat).includes("error"), 30_000, 100);
      }
    }
    await clockTo(S0 + SLOTS * SLOT + 2_000);
    await until(
      "the outage's and the heartbeat's alerts and recoveries",
      async () => hook.of(ids.outage).length >= 2 && hook.of(ids.heartbeat).length >= 2,
      60_000,
      100,
    );
    // Anything else the timeline would wrongly send arrives within the sweep's interval.
    await new Promise((r) => setTimeout(r, 4_000));
  }, 600_000);

  afterAll(async () => {
    await site?.stop();
    await stack?.close();
    await hook.stop();
    clock.close();
  });

  const sla = async (id: number) => {
    const res = await stack.api("GET", `/v1/sla/monitors/${id}?from=${new Date(S0 - 3_600_000).toISOString()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it("the API's SLA counts measured time from the first check: the outage's 2 minutes down, the maintenance left out, the killed probe's slot as no data", async () => {
    const [outage, maintained, gap] = await Promise.all([sla(ids.outage), sla(ids.maintained), sla(ids.gap)]);
    for (const r of [outage, maintained, gap]) {
      expect(r.firstCheckAt ?? r.monitors[0].firstCheckAt).toBe(S0);
      expect(r.measuredFrom).toBe(S0);
      expect(Math.abs(r.measuredTo - clock.now())).toBeLessThan(SLOT);
      expect(r.measuredMs).toBe(r.measuredTo - r.measuredFrom);
      expect(r.upMs + r.degradedMs + r.downMs + r.noDataMs + r.maintenanceMs).toBe(r.measuredMs);
    }
    const outageMs = (OUTAGE.to - OUTAGE.from + 1) * SLOT;
    expect(Math.abs(outage.downMs - outageMs)).toBeLessThanOrEqual(SLOT);
    expect(outage.failed).toBe(OUTAGE.to - OUTAGE.from + 1);
    expect(outage.noDataMs).toBeLessThan(SLOT);
    expect(outage.uptime).toBeCloseTo((outage.upMs + outage.degradedMs) / (outage.upMs + outage.degradedMs + outage.downMs), 6);

    expect(maintained.downMs).toBe(0);
    expect(Math.abs(maintained.maintenanceMs - (MAINTENANCE.to - MAINTENANCE.from + 1) * SLOT)).toBeLessThanOrEqual(SLOT);
    expect(maintained.inMaintenance).toBe(MAINTENANCE.to - MAINTENANCE.from + 1);
    expect(maintained.uptime).toBe(1);

    expect(gap.downMs).toBe(0);
    expect(Math.abs(gap.noDataMs - SLOT)).toBeLessThan(SLOT);
    expect(gap.checks).toBe(SLOTS - 1);
    expect(gap.uptime).toBe(1);
  });

  it("vigil report states the same figures as the API, to the second", async () => {
    for (const id of [ids.outage, ids.maintained, ids.gap]) {
      const api = await sla(id);
      const cli = await runCli(stack, "report", "--monitor", String(id), "--from", new Date(S0 - 3_600_000).toISOString(), "--json");
      expect(cli.code, cli.err).toBe(0);
      const r = JSON.parse(cli.out);
      for (const k of ["measuredFrom", "downMs", "maintenanceMs", "checks", "failed", "inMaintenance"]) expect(r[k], k).toBe(api[k]);
      // The two reads end at their own "now": only the time since the later read differs.
      expect(Math.abs(r.measuredMs - api.measuredMs)).toBeLessThan(SLOT);
    }
  });

  it("an incident lasts as long as the outage it records, and the missed heartbeat's as long as it was late", async () => {
    const outage = await sla(ids.outage);
    const incidents = outage.incidents.filter((i: { kind: string }) => i.kind === "monitor");
    expect(incidents).toHaveLength(1);
    expect(incidents[0].startedAt).toBe(S0 + OUTAGE.from * SLOT);
    expect(incidents[0].resolvedAt).toBe(S0 + (OUTAGE.to + 1) * SLOT);
    const { rows } = await stack.db.$client.execute({
      sql: "select started_at, resolved_at from incident where monitor_id = ?",
      args: [ids.heartbeat],
    });
    expect(rows).toHaveLength(1);
    // Due 60 s after the last ping (2 s into its slot), down after 30 s of grace, back at the next ping.
    const lastPing = S0 + (MISSED_PING - 2) * SLOT + 2_000;
    const back = S0 + (MISSED_PING + 2) * SLOT + 2_000;
    expect(Math.abs(Number(rows[0]!.started_at) - (lastPing + 90_000))).toBeLessThanOrEqual(SLOT);
    expect(Math.abs(Number(rows[0]!.resolved_at) - back)).toBeLessThanOrEqual(SLOT);
  });

  it("the delivery log holds one alert and one recovery per outage, nothing for the maintenance or the lost slot", async () => {
    expect(hook.of(ids.outage)).toEqual(["error", "recovered"]);
    expect(hook.of(ids.heartbeat)).toEqual(["error", "recovered"]);
    expect(hook.of(ids.maintained)).toEqual([]);
    expect(hook.of(ids.gap)).toEqual([]);
    const sent = hook.deliveries.filter((d) => d.monitorId === ids.outage).map((d) => d.cronTimestamp);
    expect(sent).toEqual([S0 + OUTAGE.from * SLOT, S0 + (OUTAGE.to + 1) * SLOT]);
    // The channel's delivery log says the same: the outage's two sent, the maintained monitor's held back.
    const channels = await stack.api("GET", "/v1/channels");
    const channel = channels.body.channels.find((c: { name: string }) => c.name === "hook");
    const log = await stack.api("GET", `/v1/channels/${channel.id}/deliveries?limit=100`);
    expect(log.status).toBe(200);
    type Row = { monitorId: number; status: string; outcome: string; error: string | null };
    const rows = log.body.deliveries as Row[];
    const of = (id: number) => rows.filter((r) => r.monitorId === id);
    expect(
      of(ids.outage)
        .filter((r) => r.outcome === "sent")
        .map((r) => r.status)
        .sort(),
    ).toEqual(["error", "recovered"]);
    expect(of(ids.maintained).length).toBeGreaterThan(0);
    for (const r of of(ids.maintained)) expect(r).toMatchObject({ outcome: "suppressed", error: "maintenance window" });
    expect(of(ids.gap)).toEqual([]);
  });

  it("Prometheus counts every check posted and the one slot no probe ran", async () => {
    const wsMetrics = await fetch(`http://127.0.0.1:${stack.server.env.PORT}/v1/metrics`, {
      headers: { authorization: `Bearer ${stack.apiKey}` },
    });
    expect(wsMetrics.status).toBe(200);
    const text = await wsMetrics.text();
    expect(series(text, "vigil_monitor_checks_total", { monitor_id: String(ids.outage) })).toBe(SLOTS);
    expect(series(text, "vigil_monitor_checks_failed_total", { monitor_id: String(ids.outage) })).toBe(OUTAGE.to - OUTAGE.from + 1);
    expect(series(text, "vigil_monitor_checks_total", { monitor_id: String(ids.gap) })).toBe(SLOTS - 1);
    expect(series(text, "vigil_monitor_up", { monitor_id: String(ids.heartbeat) })).toBe(1);
    const lastPing = series(text, "vigil_monitor_last_ping_timestamp_seconds", { monitor_id: String(ids.heartbeat) });
    expect(Math.abs(lastPing! * 1000 - (S0 + (SLOTS - 2) * SLOT + 2_000))).toBeLessThanOrEqual(SLOT);

    const serverMetrics = await (await fetch(`http://127.0.0.1:${stack.server.env.PORT}/metrics`, { headers: metricsHeaders() })).text();
    expect(series(serverMetrics, "vigil_location_slots_missed_total", { location: String(locationId) })).toBe(1);
  });

  it("the status page's bars count the same slots and the same failures as the SLA", async () => {
    const html = await (await fetch(`${site.url}/truth`)).text();
    for (const key of ["outage", "maintained", "gap"] as const) {
      const r = await sla(ids[key]);
      const list = new RegExp(`<ul class="bars[^"]*" aria-label="${key}: uptime per day">(.*?)</ul>`, "s").exec(html)?.[1] ?? "";
      const days = [...list.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]!);
      expect(days).toHaveLength(90);
      let ok = 0;
      let total = 0;
      for (const d of days) {
        const m = /\((\d+)\/(\d+) checks\)/.exec(d);
        if (m) {
          ok += Number(m[1]);
          total += Number(m[2]);
        }
      }
      expect(total, key).toBe(r.checks);
      expect(total - ok, key).toBe(r.failed);
    }
  });
});
