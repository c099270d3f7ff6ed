import { probeResult } from "@vigil/core/testing";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsHeaders, startTestServer, type TestServer } from "./testing";

const I = 60_000;
let database: TestDatabase;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => database?.close());

/** The server's own /metrics, the series of `vigil_location_slots_missed_total` for the location `id`. */
async function missedIn(s: TestServer, id: number): Promise<number | undefined> {
  const text = await (await fetch(`${s.url}/metrics`, { headers: metricsHeaders() })).text();
  expect(text).toContain("# TYPE vigil_location_slots_missed_total counter");
  const line = text.split("\n").find((l) => l.startsWith("vigil_location_slots_missed_total{") && l.includes(`location="${id}"`));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
}

describe("missed slots in the server's /metrics", () => {
  it("slots a location's probes never ran are counted per location, and the count survives a server restart", async () => {
    let s = await startTestServer({}, database);
    try {
      const loc = (await s.call("POST", "/v1/private-locations", { name: "edge-gaps", region: "fra" })).body;
      const monitor = (
        await s.call("POST", "/v1/monitors", {
          name: "API",
          kind: "http",
          frequency: "1m",
          regions: ["fra"],
          request: { url: "http://127.0.0.1:9/" },
        })
      ).body;
      expect(await missedIn(s, loc.id)).toBe(0);
      const s0 = Math.floor(Date.now() / I) * I - 10 * I;
      const send = async (slots: number[]) => {
        const res = await s.call(
          "POST",
          "/v1/probe/results",
          { results: slots.map((t) => probeResult(monitor.id, t, "success", { latencyMs: 3, attempts: 1 })) },
          loc.serviceKey,
        );
        expect(res.status).toBe(200);
      };
      // The probe was killed after slot 1 and back for slot 5: slots 2, 3 and 4 were never run.
      await send([s0, s0 + I]);
      await send([s0 + 5 * I, s0 + 6 * I]);
      await send([s0 + 5 * I, s0 + 6 * I]); // re-sent after a lost answer
      expect(await missedIn(s, loc.id)).toBe(3);
      await s.close();
      s = await startTestServer({}, database);
      expect(await missedIn(s, loc.id)).toBe(3);
      await send([s0 + 8 * I]);
      expect(await missedIn(s, loc.id)).toBe(4);
    } finally {
      await s.close();
    }
  });
});
