import { describe, expect, it } from "vitest";
import { LoadTracker } from "./load";

describe("the probe's own load", () => {
  it("a probe that keeps missing deadlines says it is overloaded; one missed check does not, and a quiet minute clears it", () => {
    let now = 1_800_000_000_000;
    const load = new LoadTracker(() => now);
    load.due(300);
    load.skipped(1);
    expect(load.take()).toEqual({ skipped: 1, overloaded: false });
    for (let s = 0; s < 6; s++) {
      now += 10_000;
      load.due(300);
      load.skipped(4);
    }
    expect(load.take()).toEqual({ skipped: 24, overloaded: true });
    // Reported once: the next poll starts from 0.
    expect(load.take().skipped).toBe(0);
    now += 70_000;
    load.due(300);
    expect(load.take()).toEqual({ skipped: 0, overloaded: false });
  });
});
