// A probe that dies stops voting: real probes, real server and workflows, one probe SIGKILLed.
import { describe, expect, it } from "vitest";
import { type Stack, stackWithTargets, until } from "./harness";

describe("a dead probe", () => {
  let stack: Stack;
  const { targets, hook } = stackWithTargets(
    ["iad", "ams", "jnb", "syd"],
    (s) => {
      stack = s;
    },
    // Offline after three silent intervals (90 s at 30 s), checked every 2 s.
    { workflows: { PROBE_HEALTH_INTERVAL_MS: "2000" } },
  );

  it("that died while red no longer holds its monitors in error once it is offline, with two and with four locations; alone, its monitor shows no data and alerts nothing", {
    timeout: 400_000,
  }, async () => {
    // iad sees an outage the others do not: one of two locations (half) and two of four alert.
    targets.modes.set("/pair", { failRegions: ["iad"] });
    targets.modes.set("/quad", { failRegions: ["iad", "ams"] });
    const monitor = (key: string, regions: string[]) => ({
      key,
      kind: "http",
      frequency: "30s",
      regions,
      retry: 0,
      timeout: "2s",
      request: { url: targets.url(`/${key === "solo" ? "pair" : key}`) },
    });
    const created = await stack.api("POST", "/v1/monitors/batch", {
      monitors: [monitor("pair", ["iad", "ams"]), monitor("quad", ["iad", "ams", "jnb", "syd"]), monitor("solo", ["iad"])],
    });
    expect(created.status).toBe(201);
    const [pair, quad, solo] = created.body.monitors.map((m: { id: number }) => m.id) as number[];
    await stack.api("POST", "/v1/channels", {
      name: "hook",
      kind: "webhook",
      config: { url: `http://127.0.0.1:${hook.port}/h` },
      monitors: [pair, quad, solo],
    });
    await until("every monitor in error", () => [pair!, quad!, solo!].every((id) => hook.of(id).join() === "error"), 120_000, 500);

    await stack.probes[0]!.kill("SIGKILL"); // iad
    await until("both shared monitors recovered", () => hook.of(pair!).length === 2 && hook.of(quad!).length === 2, 200_000, 1000);
    expect(hook.of(pair!)).toEqual(["error", "recovered"]);
    expect(hook.of(quad!)).toEqual(["error", "recovered"]);
    // The monitor only iad served: no data, and neither a recovery nor a new error.
    expect((await stack.api("GET", `/v1/monitors/${solo}`)).body.health).toBe("no-data");
    expect((await stack.api("GET", `/v1/monitors/${pair}`)).body.health).toBe("ok");
    await new Promise((r) => setTimeout(r, 35_000));
    expect(hook.of(solo!)).toEqual(["error"]);
    expect(hook.of(pair!)).toEqual(["error", "recovered"]);
    // Nothing of the dead probe's monitor is left pending for the sweep to re-queue for ever.
    const pending = await stack.db.$client.execute({
      sql: "select count(*) as n from check_result where evaluated_at is null and monitor_id = ?",
      args: [solo!],
    });
    expect(Number(pending.rows[0]!.n)).toBe(0);
  });
});
