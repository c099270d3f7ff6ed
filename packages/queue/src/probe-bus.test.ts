import { afterAll, describe, expect, it } from "vitest";
import { localProbeBuses } from "./testing";

const local = localProbeBuses();
const bus = local.buses[0]!;
afterAll(() => local.close());

// Outcomes, not timings: a missed wake-up would make the wait end in "timeout" instead of "wake".
const POLL_MS = 5_000;

describe("the probe bus", () => {
  it("a run requested after the probe last looked but before its long-poll began wakes the poll at once", async () => {
    const location = 11;
    const woke = await bus.waitForWake(location, 1, POLL_MS, undefined, async () => {
      await bus.requestRun(location, { runId: "r-between" });
      return false;
    });
    expect(woke).toBe("wake");
    expect(await bus.takeRuns(location)).toEqual([{ runId: "r-between" }]);
  });

  it("two long-polls on one location both hear a run requested as the second begins", async () => {
    const location = 12;
    const first = bus.waitForWake(location, 1, POLL_MS);
    const second = bus.waitForWake(location, 1, POLL_MS, undefined, async () => {
      await bus.requestRun(location, { runId: "r-shared" });
      return false;
    });
    expect(await Promise.all([first, second])).toEqual(["wake", "wake"]);
  });

  it("a run already waiting is seen by the check after subscribing, without waiting for a wake", async () => {
    const location = 13;
    await bus.requestRun(location, { runId: "r-waiting" });
    let runs: unknown[] = [];
    const woke = await bus.waitForWake(location, 1, POLL_MS, undefined, async () => {
      runs = await bus.takeRuns(location);
      return runs.length > 0;
    });
    expect(woke).toBe("wake");
    expect(runs).toEqual([{ runId: "r-waiting" }]);
  });

  it("only the location a run was asked of may answer it, and the asker gets that answer", async () => {
    await bus.requestRun(21, { runId: "r-owned" });
    const answer = bus.waitRunResult("r-owned", POLL_MS);
    expect(await bus.publishRunResult("r-owned", 22, { status: "success" })).toBe(false);
    expect(await bus.publishRunResult("r-owned", 21, { status: "success" })).toBe(true);
    expect(await answer).toEqual({ status: "success" });
  });
});
