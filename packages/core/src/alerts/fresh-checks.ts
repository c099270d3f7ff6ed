// Checks asked out of schedule for a held alert: a parent's state as of its child's failure, or a held child's
// own state once its parent is back. The hold reads the answer here; it never waits for it.
import { type Frequency, frequencyMs } from "@vigil/api-contract";
import { type Db, freshCheck, monitor, monitorEvaluation, monitorLocationStatus, privateLocation } from "@vigil/db-schema";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";

/** How long past a monitor's own timeout a held alert waits for a fresh check's answer. */
export const FRESH_GRACE_MS = 5_000;

/** Asks a probe for a fresh check of a monitor (answered through `recordFreshCheck`); it must not wait for the answer. */
export type AskCheck = (monitorId: number, askedAt: number) => void;

/** What a hold knows of a monitor it watches (a parent, or the held child itself). */
export interface Watched {
  id: number;
  name: string;
  status: string;
  /** The newest slot its evaluation decided on. */
  cron: number | null;
  /** A location's error result not evaluated yet (a parent failing in the same moment as its child). */
  unevaluatedError: boolean;
  timeoutMs: number;
  /** Time between its scheduled checks. */
  everyMs: number;
  /** Why no probe can be asked about it now; null when one can. */
  unaskable: string | null;
  fresh: { askedAt: number; status: string | null; answeredAt: number | null } | null;
}

/** The monitors a hold watches, in one round trip. */
export async function watch(db: Db, ids: readonly number[]): Promise<Watched[]> {
  if (ids.length === 0) return [];
  const [monitors, evaluations, errors, fresh, locations] = await db.batch([
    db
      .select({
        id: monitor.id,
        workspaceId: monitor.workspaceId,
        name: monitor.name,
        status: monitor.status,
        statusCron: monitor.statusCronTimestamp,
        active: monitor.active,
        kind: monitor.kind,
        regions: monitor.regions,
        timeoutMs: monitor.timeoutMs,
        frequency: monitor.frequency,
      })
      .from(monitor)
      .where(and(inArray(monitor.id, [...ids]), isNull(monitor.deletedAt)))
      .orderBy(monitor.id),
    db
      .select()
      .from(monitorEvaluation)
      .where(inArray(monitorEvaluation.monitorId, [...ids])),
    db
      .selectDistinct({ id: monitorLocationStatus.monitorId })
      .from(monitorLocationStatus)
      .leftJoin(monitorEvaluation, eq(monitorEvaluation.monitorId, monitorLocationStatus.monitorId))
      .where(
        and(
          inArray(monitorLocationStatus.monitorId, [...ids]),
          eq(monitorLocationStatus.status, "error"),
          sql`${monitorLocationStatus.resultRowid} > coalesce(${monitorEvaluation.through}, 0)`,
        ),
      ),
    db
      .select()
      .from(freshCheck)
      .where(inArray(freshCheck.monitorId, [...ids])),
    db
      .select({ workspaceId: privateLocation.workspaceId, region: privateLocation.region })
      .from(privateLocation)
      .where(
        and(
          eq(privateLocation.online, true),
          isNull(privateLocation.deletedAt),
          inArray(
            privateLocation.workspaceId,
            db
              .selectDistinct({ w: monitor.workspaceId })
              .from(monitor)
              .where(inArray(monitor.id, [...ids])),
          ),
        ),
      ),
  ]);
  const errored = new Set(errors.map((e) => e.id));
  return monitors.map((m) => {
    const ev = evaluations.find((e) => e.monitorId === m.id);
    const crons = [m.statusCron, ev?.cron ?? null].filter((c): c is number => c !== null);
    const f = fresh.find((r) => r.monitorId === m.id);
    const served = locations.some((l) => l.workspaceId === m.workspaceId && m.regions.includes(l.region));
    return {
      id: m.id,
      name: m.name || `monitor ${m.id}`,
      status: m.status,
      cron: crons.length > 0 ? Math.max(...crons) : null,
      unevaluatedError: errored.has(m.id),
      timeoutMs: m.timeoutMs,
      everyMs: frequencyMs(m.frequency as Frequency) ?? 60_000,
      unaskable: !m.active
        ? "paused"
        : m.kind === "heartbeat"
          ? "a heartbeat is known only at its deadlines"
          : served
            ? null
            : "no probe of its locations is online",
      fresh: f ? { askedAt: f.askedAt, status: f.status, answeredAt: f.answeredAt } : null,
    };
  });
}

/** Down or up as of `at` (a scheduled result at or after it, or a fresh check asked at or after it), else null. */
export function stateAsOf(w: Watched, at: number): "down" | "up" | null {
  const scheduled = w.cron !== null && w.cron >= at ? w.cron : null;
  const fresh = w.fresh?.status && w.fresh.askedAt >= at ? w.fresh : null;
  if (fresh && (scheduled === null || fresh.askedAt > scheduled)) return fresh.status === "error" ? "down" : "up";
  if (scheduled !== null) return w.status === "error" ? "down" : "up";
  return null;
}

/**
 * Whether a fresh check of `w` as of `at` is on its way ("waiting", asked now if need be), or cannot be had:
 * then the reason. The wait is bounded by the monitor's timeout plus FRESH_GRACE_MS from the ask.
 */
export async function freshOrWhy(db: Db, w: Watched, at: number, nowMs: number, ask: AskCheck | undefined): Promise<"waiting" | string> {
  const f = w.fresh;
  if (f && f.askedAt >= at) {
    if (f.answeredAt === null && nowMs < f.askedAt + w.timeoutMs + FRESH_GRACE_MS) return "waiting";
    return f.answeredAt === null ? "no probe answered in time" : "no probe answered";
  }
  if (w.unaskable) return w.unaskable;
  if (!ask) return "no probe can be asked from here";
  await db
    .insert(freshCheck)
    .values({ monitorId: w.id, askedAt: nowMs })
    .onConflictDoUpdate({ target: freshCheck.monitorId, set: { askedAt: nowMs, status: null, answeredAt: null } });
  w.fresh = { askedAt: nowMs, status: null, answeredAt: null };
  ask(w.id, nowMs);
  return "waiting";
}

/** A probe's answer to a fresh check (null: none answered); an answer to an ask since replaced is dropped. */
export async function recordFreshCheck(
  db: Db,
  monitorId: number,
  askedAt: number,
  status: "success" | "degraded" | "error" | null,
  nowMs = Date.now(),
): Promise<void> {
  await db
    .update(freshCheck)
    .set({ status, answeredAt: nowMs })
    .where(and(eq(freshCheck.monitorId, monitorId), eq(freshCheck.askedAt, askedAt)));
}
