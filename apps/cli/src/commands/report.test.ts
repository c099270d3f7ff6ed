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
    expect(lines[1]).toBe(`${m.id},API,2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,744,2,0,99.7312,99.9000,0.74,-168.8172`);
    const api = await fetch(`${s.url}/v1/sla/monitors/${m.id}?month=2026-10&format=csv`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(cli.stdout()).toBe(await api.text());

    const text = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(await run(["report", "--monitor", String(m.id), "--month", "2026-10"], text.io)).toBe(0);
    expect(text.stdout()).toContain("uptime 99.731% over 744 checks (2 failed, 0 in maintenance left out)");
  });

  it("a month in the future is refused naming --month's field, and nothing is printed on stdout", async () => {
    const cli = capture({ VIGIL_API_URL: s.url, VIGIL_API_TOKEN: s.apiKey });
    expect(await run(["report", "--monitor", "api", "--month", "2099-01", "--format", "csv"], cli.io)).toBe(1);
    expect(cli.stderr()).toContain("month");
    expect(cli.stderr()).toContain("future");
    expect(cli.stdout()).toBe("");
  });
});
