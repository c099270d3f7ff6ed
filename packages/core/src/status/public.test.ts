// The status page's bars and uptime are core's measurement: the same figures as the SLA report, to the second.
import { libsqlAnalytics } from "@vigil/analytics";
import type { TestDatabase } from "@vigil/db-schema/testing";
import { describe, expect, it } from "vitest";
import {
  createComponent,
  createMonitor,
  createStatusPage,
  findPublicPage,
  loadPublicPage,
  monitorSlaReport,
  recordResults,
} from "../index";
import { probeResult, useTestDatabase, workspaceWithLocations } from "../testing";

let t: TestDatabase;
useTestDatabase((started) => {
  t = started;
});

const MIN = 60_000;
const DAY = 86_400_000;

describe("the status page's bars", () => {
  it("a monitor created 10 minutes ago with a 2-minute outage and a 3-minute gap shows today's bar and uptime as measured, as the SLA does", async () => {
    const now = Date.UTC(2026, 10, 18, 10, 10);
    const { ws, locations } = await workspaceWithLocations(t.db, "bars", ["iad"]);
    const m = await createMonitor(
      t.db,
      ws,
      { kind: "tcp", frequency: "1m", regions: ["iad"], request: { host: "127.0.0.1", port: 9 } },
      "operator",
    );
    // 10:00 … 10:09: up, up, down, down, then no result for 3 minutes, then up.
    const slots = ["success", "success", "error", "error", null, null, null, "success", "success", "success"] as const;
    const results = slots.flatMap((s, i) => (s ? [probeResult(m.id, now - 10 * MIN + i * MIN, s, { latencyMs: 5, attempts: 1 })] : []));
    await recordResults(t.db, locations[0]!, { results }, now);
    const page = await createStatusPage(t.db, ws, { slug: "bars-measured", title: "Acme" }, "operator");
    await createComponent(t.db, ws, page.id, { name: "API", monitorId: m.id }, "operator");
    const view = await loadPublicPage(t.db, libsqlAnalytics(t.db), (await findPublicPage(t.db, { slug: "bars-measured" }))!, { now });

    const c = view.components[0]!;
    const today = c.days.at(-1)!;
    expect(today).toMatchObject({
      day: Date.UTC(2026, 10, 18),
      measuredMs: 10 * MIN,
      downMs: 2 * MIN,
      noDataMs: 3 * MIN,
      checks: 7,
      errors: 2,
    });
    expect(today.uptime).toBeCloseTo(5 / 7, 12);
    expect(today.level).toBe("major_outage");
    // Before the first check there is nothing to show: no data, not 100 %.
    expect(c.days.at(-2)).toMatchObject({ uptime: null, measuredMs: 0, level: "none" });
    expect(c.uptime).toBeCloseTo(5 / 7, 12);
    expect(c.noDataMs).toBe(3 * MIN);

    const first = Date.UTC(2026, 10, 18) - 89 * DAY;
    const sla = await monitorSlaReport(t.db, ws, m.id, { from: first, to: now }, 0.999, now);
    expect(sla).toMatchObject({
      measuredMs: 10 * MIN,
      noDataMs: c.noDataMs,
      downMs: today.downMs,
      checks: today.checks,
      failed: today.errors,
    });
    expect(sla.uptime).toBe(c.uptime);
  });
});
