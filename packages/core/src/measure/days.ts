// Days of measurement for views read by many (status pages): past days remembered a while, today always fresh.
import type { Db } from "@vigil/db-schema";
import { addTally, DAY_MS, emptyTally, type Measurement, measure } from "./measure";

/** Past days' measurements change only with a late result or a window set in the past: read again this often. */
const PAST_DAYS_MS = 10 * 60_000;
const pastDays = new WeakMap<Db, Map<string, { at: number; m: Measurement }>>();

/**
 * Each monitor's measurement per day from `from` to the end of today: the days before today are remembered for a
 * while (90 days of 1-minute checks take a second to read), today is measured on every call.
 */
export async function measuredDays(db: Db, monitorIds: number[], from: number, now: number): Promise<Map<number, Measurement>> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const cache = pastDays.get(db) ?? new Map<string, { at: number; m: Measurement }>();
  pastDays.set(db, cache);
  const key = (id: number) => `${id}:${from}:${today}`;
  const stale = monitorIds.filter((id) => {
    const hit = cache.get(key(id));
    return !hit || now - hit.at >= PAST_DAYS_MS || hit.at > now;
  });
  const [past, current] = await Promise.all([
    from < today ? measure(db, stale, { from, to: today, nowMs: now, bucket: "day" }) : Promise.resolve([]),
    measure(db, monitorIds, { from: today, to: today + DAY_MS, nowMs: now, bucket: "day" }),
  ]);
  for (const [k, v] of cache) if (now - v.at >= PAST_DAYS_MS || v.at > now) cache.delete(k);
  for (const m of past) cache.set(key(m.monitorId), { at: now, m });
  const out = new Map<number, Measurement>();
  for (const t of current) {
    const p = from < today ? cache.get(key(t.monitorId))?.m : undefined;
    if (!p) {
      out.set(t.monitorId, t);
      continue;
    }
    const joined = addTally(addTally(emptyTally(), p), t);
    out.set(t.monitorId, {
      ...t,
      ...joined,
      firstCheckAt: p.firstCheckAt ?? t.firstCheckAt,
      measuredFrom: p.measuredMs > 0 ? p.measuredFrom : t.measuredFrom,
      measuredMs: p.measuredMs + t.measuredMs,
      buckets: [...p.buckets, ...t.buckets],
    });
  }
  return out;
}
