import type { Frequency, Region } from "@vigil/api-contract";
import type { CountKey, FeatureKey, LimitKey, Limits } from "./schema";

export interface LimitViolation {
  code: "limit_exceeded";
  key: LimitKey;
  limit: unknown;
  attempted: unknown;
  message: string;
}

export class LimitExceededError extends Error {
  constructor(readonly violation: LimitViolation) {
    super(violation.message);
    this.name = "LimitExceededError";
  }
}

const violation = (key: LimitKey, limit: unknown, attempted: unknown, message: string): LimitViolation => ({
  code: "limit_exceeded",
  key,
  limit,
  attempted,
  message: `${key}: ${message}`,
});

/** `total` is the count after the write (e.g. existing monitors + new ones). */
export function checkCount(limits: Limits, key: CountKey, total: number): LimitViolation | null {
  const limit = limits[key];
  if (limit === "Unlimited" || total <= limit) return null;
  return violation(key, limit, total, `the limit is ${limit}, this would make ${total}`);
}

export function checkFeature(limits: Limits, key: FeatureKey): LimitViolation | null {
  if (limits[key]) return null;
  return violation(key, false, true, "this feature is not enabled for the workspace");
}

export function checkPeriodicity(limits: Limits, frequency: Frequency): LimitViolation | null {
  if (limits.periodicity.includes(frequency)) return null;
  return violation(
    "periodicity",
    limits.periodicity,
    frequency,
    `frequency ${frequency} is not allowed (allowed: ${limits.periodicity.join(", ") || "none"})`,
  );
}

export function checkRegions(limits: Limits, regions: readonly Region[]): LimitViolation | null {
  if (limits["multi-region"] || new Set(regions).size <= 1) return null;
  return violation("multi-region", false, regions, `only one region is allowed, got ${regions.length}`);
}

export type LimitCheck =
  | { kind: "count"; key: CountKey; total: number }
  | { kind: "feature"; key: FeatureKey }
  | { kind: "periodicity"; frequency: Frequency }
  | { kind: "regions"; regions: readonly Region[] };

/** Runs every check and returns the first violation, or null. */
export function firstViolation(limits: Limits, checks: readonly LimitCheck[]): LimitViolation | null {
  for (const c of checks) {
    const v =
      c.kind === "count"
        ? checkCount(limits, c.key, c.total)
        : c.kind === "feature"
          ? checkFeature(limits, c.key)
          : c.kind === "periodicity"
            ? checkPeriodicity(limits, c.frequency)
            : checkRegions(limits, c.regions);
    if (v) return v;
  }
  return null;
}

export function assertWithinLimits(limits: Limits, checks: readonly LimitCheck[]): void {
  const v = firstViolation(limits, checks);
  if (v) throw new LimitExceededError(v);
}
