import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProbePool } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { instanceId, ownerOf, PoolShare } from "./pool";

const ids = Array.from({ length: 3000 }, (_, i) => i + 1);

describe("a probe pool's share", () => {
  it("three probes split a location's monitors about evenly, and a fourth takes only its own share from the others", () => {
    const three = ["a1", "b2", "c3"];
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(ownerOf(three, id)!, (counts.get(ownerOf(three, id)!) ?? 0) + 1);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    const four = [...three, "d4"];
    const moved = ids.filter((id) => ownerOf(three, id) !== ownerOf(four, id));
    expect(moved.every((id) => ownerOf(four, id) === "d4")).toBe(true);
    expect(moved.length).toBeGreaterThan(550);
    expect(moved.length).toBeLessThan(950);
  });

  it("every slot of every monitor is run by exactly one probe across a join and a death, decided by the plan in force at the slot", () => {
    const interval = 30_000;
    const pool: ProbePool = {
      version: 3,
      plans: [
        { from: 0, members: ["a", "b"] },
        { from: 100_000, members: ["a", "b", "c"] }, // c joins
        { from: 200_000, members: ["a", "c"] }, // b died
      ],
    };
    const shares = ["a", "b", "c"].map((m) => new PoolShare(m));
    for (const s of shares) s.set(pool);
    for (const id of ids.slice(0, 300)) {
      for (let slot = 10_000; slot < 400_000; slot += interval) {
        const runners = shares.filter((s) => s.owns(id, slot)).map((s) => s.instance);
        expect(runners).toHaveLength(1);
        if (slot < 100_000) expect(runners[0]).not.toBe("c");
        if (slot >= 200_000) expect(runners[0]).not.toBe("b");
      }
    }
  });

  it("a probe that knows no pool runs everything, and a list without one keeps the plans it knows", () => {
    const share = new PoolShare("a");
    expect(ids.every((id) => share.owns(id, 1))).toBe(true);
    share.set({ version: 1, plans: [{ from: 0, members: ["a", "b"] }] });
    const mine = ids.filter((id) => share.owns(id, 1)).length;
    expect(mine).toBeLessThan(ids.length);
    share.set(undefined);
    expect(ids.filter((id) => share.owns(id, 1)).length).toBe(mine);
  });

  it("a probe keeps its instance id across restarts in its data dir, and a damaged file gets a new one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-pool-"));
    try {
      const first = await instanceId(dir);
      expect(first).toMatch(/^[0-9a-f]{16}$/);
      expect(await instanceId(dir)).toBe(first);
      writeFileSync(join(dir, "instance-id"), "not valid!");
      expect(await instanceId(dir)).not.toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
