import { describe, expect, it } from "vitest";
import { reportRange, slaDowntime, slaTarget } from "./report";

const H = 3_600_000;
const OCT = Date.UTC(2026, 9, 1);
const NOV = Date.UTC(2026, 10, 1);

describe("the error budget in time", () => {
  it("an hourly monitor's October at 99% allows 7.4 hours down and its 3 failed checks use 3 of them, maintenance hours aside", () => {
    // 744 hourly checks, 4 inside a maintenance window: 740 counted, 3 failed.
    const d = slaDowntime({ from: OCT, to: NOV, target: 0.99, checks: 740, failed: 3, inMaintenance: 4 });
    expect(d.countedMs).toBe(740 * H);
    expect(d.allowedMs).toBeCloseTo(7.4 * H, 3);
    expect(d.usedMs).toBe(3 * H);
    expect(d.remainingMs).toBeCloseTo(4.4 * H, 3);
    // The same share of the budget as the report's errorBudget.remaining (1 − 3 / 7.4).
    expect(1 - d.usedMs / d.allowedMs).toBeCloseTo(1 - 3 / 7.4, 10);
  });

  it("a spent budget goes below zero by the time overspent", () => {
    const d = slaDowntime({ from: OCT, to: NOV, target: 0.999, checks: 744, failed: 10, inMaintenance: 0 });
    expect(d.allowedMs).toBeCloseTo(0.744 * H, 3);
    expect(d.remainingMs).toBeCloseTo(-9.256 * H, 3);
  });

  it("a range with no checks has used nothing and allows its whole share", () => {
    const d = slaDowntime({ from: OCT, to: NOV, target: 0.999, checks: 0, failed: 0, inMaintenance: 0 });
    expect(d).toEqual({
      countedMs: 744 * H,
      allowedMs: expect.closeTo(0.744 * H, 3),
      usedMs: 0,
      remainingMs: expect.closeTo(0.744 * H, 3),
    });
  });
});

describe("the objective", () => {
  it("a percent becomes the fraction reports take, without float noise", () => {
    expect(slaTarget(99.9)).toBe(0.999);
    expect(slaTarget(99.95)).toBe(0.9995);
    expect(slaTarget(99)).toBe(0.99);
  });
});

describe("the report's range", () => {
  it("the month in progress ends now, and a month ahead is refused naming the month field", () => {
    const now = Date.UTC(2026, 10, 27, 19);
    expect(reportRange({ month: "2026-11" }, now)).toEqual({ from: NOV, to: now });
    expect(() => reportRange({ month: "2026-12" }, now)).toThrow(/month must not be in the future/);
  });
});
