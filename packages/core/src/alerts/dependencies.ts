// Dependencies: a child's alert waits while a parent is down. Its status still moves (the dashboard and status
// page show the truth); the alert is held, logged as suppressed on each channel, and sent if the child is
// still down once no parent is.
import {
  alertTimer,
  type Db,
  monitor,
  monitorDependency,
  monitorEvaluation,
  monitorLocationStatus,
  notificationDelivery,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { channelsForEvent } from "./deliveries";
import { monitorAndNewestEvent, planFollowUps, type TimerSend } from "./follow-ups";

type Timer = typeof alertTimer.$inferSelect;

/** How long a child's alert waits for its parents' results of the same moment to be evaluated. */
export const HOLD_GRACE_MS = 2_000;

/**
 * The parents that are down: in error, or with an error result not evaluated yet (the parent and its
 * children failing in the same moment are evaluated in any order).
 */
export async function parentsDown(db: Db, monitorId: number): Promise<{ id: number; name: string }[]> {
  const unevaluatedError = sql`exists (select 1 from ${monitorLocationStatus} left join ${monitorEvaluation} on ${monitorEvaluation.monitorId} = ${monitorLocationStatus.monitorId}
    where ${monitorLocationStatus.monitorId} = ${monitor.id} and ${monitorLocationStatus.status} = 'error'
    and ${monitorLocationStatus.resultRowid} > coalesce(${monitorEvaluation.through}, 0))`;
  return db
    .select({ id: monitor.id, name: monitor.name })
    .from(monitorDependency)
    .innerJoin(monitor, eq(monitor.id, monitorDependency.parentId))
    .where(and(eq(monitorDependency.monitorId, monitorId), isNull(monitor.deletedAt), or(eq(monitor.status, "error"), unevaluatedError)))
    .orderBy(monitor.id);
}

/** A hold comes due: dropped if the child moved on, kept (and logged once as suppressed) while a parent is down, else released. */
export async function fireHold(
  db: Db,
  t: Timer,
  queue: (sends: TimerSend[]) => Promise<void>,
  nowMs: number,
  recheckMs: number,
): Promise<"closed" | "held" | "released"> {
  const [[child], [newest]] = await db.batch(monitorAndNewestEvent(db, t.monitorId));
  const wait = db
    .update(alertTimer)
    .set({ dueAt: nowMs + recheckMs })
    .where(eq(alertTimer.id, t.id));
  if (!child || child.deletedAt !== null || child.status === "active" || newest?.id !== t.eventId) {
    await db
      .update(alertTimer)
      .set({ firedAt: nowMs, outcome: t.outcome ?? "dropped" })
      .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));
    return "closed";
  }
  const down = await parentsDown(db, t.monitorId);
  if (down.length > 0) {
    if (t.outcome === null) {
      const reason = `suppressed: parent ${down[0]!.name || `monitor ${down[0]!.id}`} down`;
      const channelIds = await channelsForEvent(db, t.eventId);
      await writeBatch(db, [
        ...(channelIds.length > 0
          ? [
              db.insert(notificationDelivery).values(
                channelIds.map((channelId) => ({
                  eventId: t.eventId,
                  channelId,
                  attempt: 0,
                  outcome: "suppressed" as const,
                  error: reason,
                  createdAt: nowMs,
                })),
              ),
            ]
          : []),
        db
          .update(alertTimer)
          .set({ outcome: reason, dueAt: nowMs + recheckMs })
          .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.outcome))),
      ]);
    } else await wait;
    return "held";
  }
  // No parent is down and the child still is: its alert goes out now, as if it had just been raised.
  const [ev] = await db.select().from(statusEvent).where(eq(statusEvent.id, t.eventId));
  await planFollowUps(db, ev!, nowMs);
  await queue((await channelsForEvent(db, t.eventId)).map((channelId) => ({ eventId: t.eventId, channelId, round: 0 })));
  await db
    .update(alertTimer)
    .set({ firedAt: nowMs, outcome: "released" })
    .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));
  return "released";
}

/** The monitors a monitor depends on (its parents), by name, for the dashboard; another workspace's monitor is never listed. */
export async function dependenciesOf(db: Db, workspaceId: number, monitorId: number) {
  return db
    .select({ id: monitor.id, name: monitor.name, key: monitor.key })
    .from(monitorDependency)
    .innerJoin(monitor, eq(monitor.id, monitorDependency.parentId))
    .where(and(eq(monitorDependency.monitorId, monitorId), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)))
    .orderBy(monitor.name, monitor.id);
}

/** Children of a monitor, for the dashboard. */
export async function dependentsOf(db: Db, monitorId: number) {
  return db
    .select({ id: monitor.id, name: monitor.name })
    .from(monitorDependency)
    .innerJoin(monitor, eq(monitor.id, monitorDependency.monitorId))
    .where(and(eq(monitorDependency.parentId, monitorId), isNull(monitor.deletedAt), gt(monitor.id, 0)));
}
