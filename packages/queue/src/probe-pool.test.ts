import { afterAll, describe, expect, it } from "vitest";
import { POOL_LEAD_MS } from "./probe-pool";
import { localProbeBuses } from "./testing";

// Two servers on one Redis.
const local = localProbeBuses(2);
const [one, two] = local.buses as [(typeof local.buses)[0], (typeof local.buses)[0]];
afterAll(() => local.close());

const LIVE_MS = 60_000;

describe("a probe pool", () => {
  it("a probe alone runs everything from the first request, and a restart under the same instance changes nothing", async () => {
    const first = await one.pool.touch(1, "a", LIVE_MS);
    expect(first?.plans).toEqual([{ from: 0, members: ["a"] }]);
    const again = await two.pool.touch(1, "a", LIVE_MS);
    expect(again).toEqual(first);
  });

  it("a probe that joins takes its share only after the lead time, and the others are woken to hear of it", async () => {
    await one.pool.touch(2, "a", LIVE_MS);
    const before = Date.now();
    const joined: { pool?: Awaited<ReturnType<typeof one.pool.touch>> } = {};
    // The join happens once the long-poll listens: it must wake it.
    const woke = await one.waitForWake(2, 1, 5000, undefined, async () => {
      joined.pool = await two.pool.touch(2, "b", LIVE_MS);
      return false;
    });
    expect(woke).toBe("wake");
    const pool = joined.pool;
    expect(pool?.plans).toHaveLength(2);
    expect(pool?.plans[1]?.members).toEqual(["a", "b"]);
    expect(pool!.plans[1]!.from).toBeGreaterThanOrEqual(before + POOL_LEAD_MS - 50);
    expect(pool!.version).toBeGreaterThan(0);
    expect(await one.pool.read(2)).toEqual(pool);
  });

  it("a probe unseen for the live bound is dropped at the next member's request", async () => {
    await one.pool.touch(3, "a", LIVE_MS);
    await one.pool.touch(3, "b", LIVE_MS);
    await new Promise((r) => setTimeout(r, 300));
    await one.pool.touch(3, "a", 10_000);
    const pool = await one.pool.touch(3, "a", 200); // b last seen 300 ms ago
    expect(pool?.plans.map((p) => p.members)).toEqual([["a"], ["a", "b"], ["a"]]);
  });

  it("when the last probe leaves, the next one to come runs every slot at once, without waiting for the lead", async () => {
    await one.pool.touch(4, "a", LIVE_MS);
    await one.pool.touch(4, "a", LIVE_MS, true);
    const gone = await one.pool.read(4);
    expect(gone?.plans.at(-1)?.members).toEqual([]);
    const back = await one.pool.touch(4, "c", LIVE_MS);
    expect(back?.plans).toEqual([
      { from: 0, members: ["a"] },
      { from: gone!.plans[1]!.from, members: ["c"] },
    ]);
  });

  it("two servers touching at once write one plan per membership change", async () => {
    await one.pool.touch(5, "a", LIVE_MS);
    await Promise.all([one.pool.touch(5, "b", LIVE_MS), two.pool.touch(5, "b", LIVE_MS), one.pool.touch(5, "a", LIVE_MS)]);
    const pool = await two.pool.read(5);
    expect(pool?.plans.map((p) => p.members)).toEqual([["a"], ["a", "b"]]);
  });
});
