import { insertResults } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hourlyApiMonitor, startTestServer, type TestServer } from "../../../server/src/testing";
import { run } from "../main";
import { capture } from "../testing/harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe("vigil report", () => {
  it("prints a monitor's October SLA as CSV, by its YAML key, the same bytes the API serves", async () => {
    const { location: loc, monitor: m } = await hourlyApiMonitor(s, "rack");
    const oct = Date.UTC(2026, 9, 1);
    await insertResults(
      s.database.db,
      Array.from({ length: 744 }, (_, h) => ({
        workspaceId: s.workspaceId,
        monitorId: m.id,
        locationId: loc.id,
        cronTimestamp: oct + h * 3_600_000,
        status: h < 2 ? ("error" as const) : ("success" as const),
        latencyMs: 10,
        evaluatedAt: oct,
      })),
    );
    const cli = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(await run(["report", "--monitor", "api", "--month", "2026-10", "--format", "csv"], cli.io)).toBe(0);
    const lines = cli.stdout().trim().split("\n");
    expect(lines[1]).toBe(
      `${m.id},API,2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,744,2,0,99.7312,99.9000,0.74,-168.8172,` +
        "2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,2678400.000,2671200.000,0.000,7200.000,0.000,0.000,2678.400,7200.000",
    );
    const api = await fetch(`${s.url}/v1/sla/monitors/${m.id}?month=2026-10&format=csv`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(cli.stdout()).toBe(await api.text());

    const text = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(await run(["report", "--monitor", String(m.id), "--month", "2026-10"], text.io)).toBe(0);
    expect(text.stdout()).toContain(
      "measured 2026-10-01T00:00:00Z – 2026-11-01T00:00:00Z (31 d): up 30 d 22 h, down 2 h, no data 0 s, maintenance 0 s left out",
    );
    expect(text.stdout()).toContain("uptime 99.731% over 744 checks (2 failed, 0 in maintenance left out)");
    // 0.1 % of 744 h is 44 min 38 s; 2 h down overspend it.
    expect(text.stdout()).toContain("error budget: 44 min 38 s allowed, 2 h used, -1 h 15 min 22 s (-168.817%) left");
  });

  it("a monitor created minutes ago reports the minutes it was measured, not the month", async () => {
    const loc = (await s.call("POST", "/v1/private-locations", { name: "young", region: "fra" })).body;
    const m = (
      await s.call("POST", "/v1/monitors", {
        key: "young",
        kind: "http",
        frequency: "1h",
        regions: ["fra"],
        request: { url: "http://127.0.0.1:9/" },
      })
    ).body;
    const now = Date.now();
    const first = now - 3 * 3_600_000 - (now % 3_600_000);
    await insertResults(
      s.database.db,
      [0, 1, 2].map((h) => ({
        workspaceId: s.workspaceId,
        monitorId: m.id,
        locationId: loc.id,
        cronTimestamp: first + h * 3_600_000,
        status: h === 1 ? ("error" as const) : ("success" as const),
        latencyMs: 10,
        evaluatedAt: first,
      })),
    );
    const cli = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(
      await run(["report", "--monitor", String(m.id), "--from", new Date(first - 86_400_000).toISOString(), "--format", "json"], cli.io),
    ).toBe(0);
    const r = JSON.parse(cli.stdout());
    expect(r.measuredFrom).toBe(first);
    expect(r).toMatchObject({ checks: 3, failed: 1, downMs: 3_600_000, upMs: 2 * 3_600_000 });
    // Measured up to the moment the server answered: the last hour's slot only as far as it went.
    expect(r.measuredMs).toBe(r.measuredTo - first);
    expect(r.upMs + r.downMs + r.noDataMs).toBe(r.measuredMs);
  });

  it("a month in the future is refused naming --month's field, and nothing is printed on stdout", async () => {
    const cli = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(await run(["report", "--monitor", "api", "--month", "2099-01", "--format", "csv"], cli.io)).toBe(1);
    expect(cli.stderr()).toContain("month");
    expect(cli.stderr()).toContain("future");
    expect(cli.stdout()).toBe("");
  });
});
