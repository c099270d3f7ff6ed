import { describe, expect, it } from "vitest";
import { heartbeatFacts } from "./heartbeat-facts";

const now = Date.UTC(2026, 10, 29, 12);
const schedule = "every 5 min · grace 1 min";
const min = 60_000;

describe("a heartbeat's page facts", () => {
  it("once a ping arrived it names the next ping's time and the deadline, never 'after the first ping'", () => {
    const f = heartbeatFacts({ state: "up", nextExpectedAt: now + 4 * min, deadlineAt: now + 5 * min, rearmedAt: null }, schedule, now);
    expect(f.nextPing).toEqual({ value: "in 4 min", detail: "2026-11-29 12:04 UTC" });
    expect(f.downAfter).toEqual({ value: "in 5 min", detail: "2026-11-29 12:05 UTC" });
  });

  it("before the first ping it says the first ping arms the deadline, with the schedule, instead of a dash", () => {
    const f = heartbeatFacts({ state: "new", nextExpectedAt: null, deadlineAt: null, rearmedAt: null }, schedule, now);
    expect(f.nextPing).toEqual({ value: "the first ping", detail: schedule });
    expect(f.downAfter).toEqual({ value: "not before the first ping", detail: `the first ping arms the deadline: ${schedule}` });
  });

  it("after a missed deadline it says how long ago the ping was due and the deadline passed", () => {
    const f = heartbeatFacts({ state: "down", nextExpectedAt: now - 3 * min, deadlineAt: now - 2 * min, rearmedAt: null }, schedule, now);
    expect(f.nextPing).toEqual({ value: "3 min ago", detail: "2026-11-29 11:57 UTC · overdue" });
    expect(f.downAfter.value).toBe("2 min ago");
  });

  it("a run that reported a failure is down now, not down in the future", () => {
    const f = heartbeatFacts({ state: "down", nextExpectedAt: now + 4 * min, deadlineAt: now + 5 * min, rearmedAt: null }, schedule, now);
    expect(f.downAfter.value).toBe("down now");
    expect(f.nextPing.value).toBe("in 4 min");
  });

  it("a paused heartbeat expects nothing and never goes down", () => {
    const f = heartbeatFacts({ state: "paused", nextExpectedAt: now, deadlineAt: now + min, rearmedAt: null }, schedule, now);
    expect([f.nextPing.value, f.downAfter.value]).toEqual(["none while paused", "never while paused"]);
  });
});
