import { LIMIT_KEYS, type LimitKey, Limits, restricted } from "./schema";

export type LimitsWarning = (message: string) => void;
const defaultWarn: LimitsWarning = (m) => process.emitWarning(m, "VigilLimits");

/**
 * Reads the `limits` column. Never throws: bad JSON gives restricted, and a key that is
 * missing or of the wrong type takes its restricted value. Each problem is reported once via `warn`.
 */
export function parseLimits(column: string | null | undefined, warn: LimitsWarning = defaultWarn): Limits {
  if (column === null || column === undefined || column.trim() === "") return { ...restricted };
  let raw: unknown;
  try {
    raw = JSON.parse(column);
  } catch (err) {
    warn(`workspace limits are not valid JSON (${(err as Error).message}); using restricted limits`);
    return { ...restricted };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    warn("workspace limits are not a JSON object; using restricted limits");
    return { ...restricted };
  }
  const out: Record<string, unknown> = {};
  const obj = raw as Record<string, unknown>;
  for (const key of LIMIT_KEYS) {
    if (!(key in obj)) {
      out[key] = restricted[key];
      continue;
    }
    const parsed = Limits.shape[key].safeParse(obj[key]);
    if (parsed.success) out[key] = parsed.data;
    else {
      warn(`workspace limit "${key}" is invalid (${parsed.error.issues[0]?.message}); using ${JSON.stringify(restricted[key])}`);
      out[key] = restricted[key];
    }
  }
  for (const key of Object.keys(obj)) {
    if (!LIMIT_KEYS.includes(key as LimitKey)) warn(`workspace limit "${key}" is not a known key; ignored`);
  }
  return out as Limits;
}

export interface PlanFields {
  plan?: string | null;
  paidUntil?: number | null; // unix seconds
  endsAt?: number | null; // unix seconds
}

/** True when the plan has ended: ends_at passed, or paid_until (when set) passed. */
export function planExpired(ws: PlanFields, nowMs = Date.now()): boolean {
  const now = Math.floor(nowMs / 1000);
  if (ws.endsAt !== null && ws.endsAt !== undefined && ws.endsAt <= now) return true;
  if (ws.paidUntil !== null && ws.paidUntil !== undefined && ws.paidUntil > 0 && ws.paidUntil <= now) return true;
  return false;
}

/** The limits in force: the column's, or restricted once the plan has expired. */
export function effectiveLimits(ws: PlanFields & { limits: string | null }, nowMs = Date.now(), warn?: LimitsWarning): Limits {
  if (planExpired(ws, nowMs)) return { ...restricted };
  return parseLimits(ws.limits, warn);
}

/** Months of `data-retention` ("3 months" → 3). */
export function retentionMonths(limits: Limits): number {
  return Number.parseInt(limits["data-retention"], 10);
}

/** Oldest timestamp (ms) still kept under `data-retention`, counting calendar months back from now. */
export function retentionCutoff(limits: Limits, nowMs = Date.now()): number {
  const d = new Date(nowMs);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - retentionMonths(limits));
  // Clamp to the target month's last day: 31 May minus 3 months is 28 Feb, not 3 March.
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}
