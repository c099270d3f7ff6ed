// Thresholds on real processes: probe → server → workflows → a loopback webhook, against HTTP targets the test flips.
import { describe, expect, it } from "vitest";
import { hookChannel, type Stack, stackWithTargets, until } from "./harness";

describe("failure threshold 3, end to end", () => {
  let stack: Stack;
  const { targets, hook } = stackWithTargets(["iad"], (s) => {
    stack = s;
  });
  const failing = (path: string) => targets.hits.filter((h) => h.path === path && h.status !== 200).length;

  it("a target failing twice then recovering raises no alert; one failing three times raises one, then one recovery", {
    timeout: 360_000,
  }, async () => {
    await hookChannel(stack, hook);
    const monitorOf = (key: string) => ({
      key,
      kind: "http",
      frequency: "30s",
      regions: ["iad"],
      retry: 0,
      timeout: "2s",
      failureThreshold: 3,
      channels: ["hook"],
      request: { url: targets.url(`/${key}`) },
    });
    targets.modes.set("/twice", "down");
    targets.modes.set("/thrice", "down");
    const created = await stack.api("POST", "/v1/monitors/batch", { monitors: [monitorOf("twice"), monitorOf("thrice")] });
    expect(created.status).toBe(201);
    const [twice, thrice] = created.body.monitors.map((m: { id: number; failureThreshold: number }) => {
      expect(m.failureThreshold).toBe(3);
      return m.id;
    });
    // The first target comes back after its second failed check; the other after its fourth.
    await until("two failed checks of the first", () => failing("/twice") >= 2, 120_000, 100);
    targets.modes.set("/twice", "up");
    await until("four failed checks of the second", () => failing("/thrice") >= 4, 180_000, 100);
    targets.modes.set("/thrice", "up");
    await until("the second's recovery", () => hook.of(thrice).includes("recovered"), 90_000);
    expect(failing("/twice")).toBe(2);
    expect(hook.of(twice)).toEqual([]);
    expect(hook.of(thrice)).toEqual(["error", "recovered"]);
    // The error alert names the third failed check's slot.
    const third = targets.hits.filter((h) => h.path === "/thrice" && h.status !== 200)[2]!;
    const alert = hook.deliveries.find((d) => d.monitorId === thrice && d.status === "error")!;
    expect(Math.abs(third.at - alert.cronTimestamp)).toBeLessThan(30_000);
  });

  it("a threshold of 0 or 101 is refused by the API naming the field, and nothing is created", async () => {
    for (const value of [0, 101]) {
      const res = await stack.api("POST", "/v1/monitors", {
        kind: "tcp",
        frequency: "30s",
        regions: ["iad"],
        successThreshold: value,
        request: { host: "127.0.0.1", port: 9 },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([expect.objectContaining({ path: "successThreshold", message: "must be 1-100" })]);
    }
    const list = await stack.api("GET", "/v1/monitors");
    expect(list.body.monitors.map((m: { key: string }) => m.key).sort()).toEqual(["thrice", "twice"]);
  });
});
