import { incident, maintenance, maintenanceMonitor } from "@vigil/db-schema";
import { insertResults } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hourlyApiMonitor, startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

const H = 3_600_000;
const OCT = Date.UTC(2026, 9, 1);
const NOV = Date.UTC(2026, 10, 1);

describe("SLA reports", () => {
  let monitorId: number;
  let pageId: number;
  beforeAll(async () => {
    const { location: loc, monitor } = await hourlyApiMonitor(s, "rack-fra");
    monitorId = monitor.id;
    // Hourly results from 30 Sep 23:00 to 1 Nov 00:00; errors on 5 Oct 10:00-13:00 (inside maintenance),
    // on 20 Oct 00:00-02:00, and just outside October on both sides.
    const errors = new Set([
      OCT - H,
      Date.UTC(2026, 9, 5, 10),
      Date.UTC(2026, 9, 5, 11),
      Date.UTC(2026, 9, 5, 12),
      Date.UTC(2026, 9, 5, 13),
    ]);
    for (const h of [0, 1, 2]) errors.add(Date.UTC(2026, 9, 20, h));
    errors.add(NOV);
    const rows = [];
    for (let at = OCT - H; at <= NOV; at += H)
      rows.push({
        workspaceId: s.workspaceId,
        monitorId,
        locationId: loc.id,
        cronTimestamp: at,
        status: errors.has(at) ? ("error" as const) : ("success" as const),
        latencyMs: 50,
        evaluatedAt: at,
      });
    await insertResults(s.database.db, rows);
    const [w] = await s.database.db
      .insert(maintenance)
      .values({
        workspaceId: s.workspaceId,
        title: "Database upgrade",
        startsAt: Date.UTC(2026, 9, 5, 10),
        endsAt: Date.UTC(2026, 9, 5, 14),
      })
      .returning();
    await s.database.db.insert(maintenanceMonitor).values({ maintenanceId: w!.id, monitorId });
    await s.database.db.insert(incident).values({
      workspaceId: s.workspaceId,
      monitorId,
      startedAt: Date.UTC(2026, 9, 20, 0),
      resolvedAt: Date.UTC(2026, 9, 20, 3),
      cause: "connection refused",
    });
    pageId = (await s.call("POST", "/v1/status-pages", { slug: "sla-page", title: "Acme" })).body.id;
    await s.call("POST", `/v1/status-pages/${pageId}/components`, { name: "API", monitorId });
  });

  it("October's uptime and error budget leave out the maintenance window and equal the hand-computed figures", async () => {
    const r = await s.call("GET", `/v1/sla/monitors/${monitorId}?month=2026-10&target=99`);
    expect(r.status).toBe(200);
    // 744 hours in October, 4 of them in maintenance: 740 counted, 3 failed.
    expect(r.body).toMatchObject({ from: OCT, to: NOV, target: 0.99, checks: 740, failed: 3, inMaintenance: 4 });
    expect(r.body.uptime).toBeCloseTo(737 / 740, 10);
    expect(r.body.errorBudget.allowedFailures).toBeCloseTo(7.4, 10);
    expect(r.body.errorBudget.remaining).toBeCloseTo(1 - 3 / 7.4, 10);
    expect(r.body).toMatchObject({
      measuredFrom: OCT,
      measuredTo: NOV,
      measuredMs: 744 * H,
      downMs: 3 * H,
      maintenanceMs: 4 * H,
      noDataMs: 0,
    });
    expect(r.body.maintenance).toEqual([
      { id: expect.any(Number), title: "Database upgrade", startsAt: Date.UTC(2026, 9, 5, 10), endsAt: Date.UTC(2026, 9, 5, 14) },
    ]);
    expect(r.body.incidents).toEqual([
      {
        id: expect.any(Number),
        kind: "monitor",
        title: "API: connection refused",
        startedAt: Date.UTC(2026, 9, 20),
        resolvedAt: Date.UTC(2026, 9, 20, 3),
      },
    ]);
  });

  it("a custom range counts only its own hours", async () => {
    const r = await s.call("GET", `/v1/sla/monitors/${monitorId}?from=2026-10-20&to=2026-10-21`);
    expect(r.body).toMatchObject({ checks: 24, failed: 3, inMaintenance: 0, target: 0.999 });
  });

  it("the same report comes as CSV, and the status page's report covers its monitor and lists its incidents", async () => {
    const res = await fetch(`${s.url}/v1/sla/monitors/${monitorId}?month=2026-10&target=99&format=csv`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "monitor_id,monitor,from,to,checks,failed,in_maintenance,uptime_percent,target_percent,allowed_failures,budget_remaining_percent," +
        "measured_from,measured_to,measured_s,up_s,degraded_s,down_s,no_data_s,maintenance_s,allowed_downtime_s,downtime_used_s",
    );
    // 744 measured hours: 737 up, 3 down, 4 in maintenance; 1 % of the 740 counted is 7.4 h allowed.
    expect(lines[1]).toBe(
      `${monitorId},API,2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,740,3,4,99.5946,99.0000,7.40,59.4595,` +
        "2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,2678400.000,2653200.000,0.000,10800.000,0.000,14400.000,26640.000,10800.000",
    );
    expect(lines[2]).toMatch(/^,total,/);
    const page = await s.call("GET", `/v1/sla/status-pages/${pageId}?month=2026-10&target=99`);
    expect(page.body).toMatchObject({ checks: 740, failed: 3, monitors: [{ monitorId, monitorName: "API" }] });
  });

  it("a range longer than the monitor's life is measured from its first check, the time after its last result as no data", async () => {
    const r = await s.call("GET", `/v1/sla/monitors/${monitorId}?from=2025-11-01&to=2026-11-02`);
    // First result 30 Sep 23:00, last 1 Nov 00:00 (its hour counted): 769 h measured, the last 23 without a result.
    expect(r.body).toMatchObject({ measuredFrom: OCT - H, measuredTo: NOV + 24 * H, measuredMs: 769 * H });
    expect(r.body).toMatchObject({ upMs: 737 * H, downMs: 5 * H, maintenanceMs: 4 * H, noDataMs: 23 * H, checks: 742, failed: 5 });
    expect(r.body.errorBudget.allowedMs).toBeCloseTo(742 * H * 0.001, 3);
  });

  it("the monitor summary's uptime is the SLA report's for the same range, hour by hour", async () => {
    const from = Date.UTC(2026, 9, 20);
    const to = from + 24 * H;
    const summary = (await s.call("GET", `/v1/monitors/${monitorId}/summary?from=${from}&to=${to}&bucket=hour`)).body;
    const sla = (await s.call("GET", `/v1/sla/monitors/${monitorId}?from=2026-10-20&to=2026-10-21`)).body;
    expect(summary.measured).toMatchObject({ measuredFrom: from, measuredTo: to, measuredMs: 24 * H, downMs: 3 * H, noDataMs: 0 });
    expect(summary.measured.uptime).toBe(sla.uptime);
    expect(summary.measured.downMs).toBe(sla.downMs);
    expect(summary.measured.buckets).toHaveLength(24);
    expect(summary.measured.buckets.slice(0, 4).map((b: { uptime: number }) => b.uptime)).toEqual([0, 0, 0, 1]);
  });

  it("the OpenAPI document describes the report's measured fields", async () => {
    const doc = (await s.call("GET", "/openapi.json", undefined, null)).body;
    const report = doc.paths["/v1/sla/monitors/{id}"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(report.properties)).toEqual(expect.arrayContaining(["measuredFrom", "measuredMs", "noDataMs", "downMs"]));
    expect(Object.keys(report.properties.errorBudget.properties)).toEqual(expect.arrayContaining(["allowedMs", "usedMs", "remainingMs"]));
  });

  it("ranges in the future, longer than 13 months or malformed are refused naming the field", async () => {
    const cases: [string, string][] = [
      ["month=2099-01", "month"],
      ["month=2026-13", "month"],
      ["from=2099-01-01", "from"],
      ["from=2026-01-01&to=2099-01-01", "to"],
      ["from=2025-01-01&to=2026-02-02", "to"],
      ["from=yesterday", "from"],
      ["", "from"],
      ["month=2026-10&target=100", "target"],
    ];
    for (const [query, field] of cases) {
      const r = await s.call("GET", `/v1/sla/monitors/${monitorId}?${query}`);
      expect(r.status, query).toBe(400);
      expect(
        r.body.error.issues.map((i: { path: string }) => i.path),
        query,
      ).toContain(field);
    }
    expect((await s.call("GET", `/v1/sla/monitors/${monitorId}?from=2025-10-01&to=2026-11-01`)).status).toBe(200);
  });

  it("another workspace's monitor or page is not found, and a missing key is refused", async () => {
    const other = await startTestServer({}, s.database);
    try {
      expect((await other.call("GET", `/v1/sla/monitors/${monitorId}?month=2026-10`)).status).toBe(404);
      expect((await other.call("GET", `/v1/sla/status-pages/${pageId}?month=2026-10`)).status).toBe(404);
    } finally {
      await other.close();
    }
    expect((await s.call("GET", `/v1/sla/monitors/${monitorId}?month=2026-10`, undefined, null)).status).toBe(401);
  });
});
