// Dependencies: a child's alert waits while a parent is down or its state as of the child's failure is not known
// yet. Its status still moves (the dashboard and status page show the truth); the alert is held, logged as
// suppressed on each channel, and sent only if the child is known to be down once no parent is.
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
import { and, desc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { channelsForEvent } from "./deliveries";
import { monitorAndNewestEvent, newestEvent, planFollowUps, type TimerSend } from "./follow-ups";
import { type AskCheck, FRESH_GRACE_MS, freshOrWhy, stateAsOf, type Watched, watch } from "./fresh-checks";

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

/** What a hold decides at one firing: keep holding (and why), or let the alert go (and why). */
type Verdict = { hold: string; down?: true } | { release: string };

/**
 * A child's alert as of now. A parent down holds it. Parents back up since the child failed: the child itself
 * must be known down after their recovery (one already up sends nothing). Otherwise each parent must be known
 * as of the child's failing slot; one not known yet is checked afresh, and one that cannot be known in time
 * lets the alert go, saying so.
 */
async function verdict(db: Db, t: Timer, failedAt: number, nowMs: number, ask: AskCheck | undefined): Promise<Verdict> {
  const ids = (
    await db.select({ id: monitorDependency.parentId }).from(monitorDependency).where(eq(monitorDependency.monitorId, t.monitorId))
  ).map((r) => r.id);
  const parents = await watch(db, ids);
  const down = parents.find((p) => p.status === "error" || p.unevaluatedError);
  if (down) return { hold: `held: parent ${down.name} down`, down: true };
  // The newest recovery of a parent since the child failed (an error left for up or degraded).
  const [back] = await db
    .select({ monitorId: statusEvent.monitorId, cron: statusEvent.cronTimestamp })
    .from(statusEvent)
    .where(
      and(
        inArray(statusEvent.monitorId, ids.length > 0 ? ids : [-1]),
        eq(statusEvent.previousStatus, "error"),
        ne(statusEvent.status, "error"),
        gt(statusEvent.cronTimestamp, failedAt),
      ),
    )
    .orderBy(desc(statusEvent.cronTimestamp))
    .limit(1);
  if (back) {
    const name = parents.find((p) => p.id === back.monitorId)?.name ?? `monitor ${back.monitorId}`;
    const [self] = await watch(db, [t.monitorId]);
    const state = self ? stateAsOf(self, back.cron) : "up";
    if (state === "down") return { release: `released: still down after parent ${name} recovered` };
    if (state === "up") return { hold: `held: up again after parent ${name} recovered` };
    const why = await freshOrWhy(db, self!, back.cron, nowMs, ask);
    if (why === "waiting") return { hold: `held: parent ${name} recovered, checking this monitor again` };
    // No fresh answer: its own next scheduled result decides, if it comes in time.
    if (nowMs < back.cron + self!.everyMs + self!.timeoutMs + FRESH_GRACE_MS)
      return { hold: `held: parent ${name} recovered, waiting for this monitor's next check (${why})` };
    return { release: `released: parent ${name} recovered, this monitor's state unknown (${why})` };
  }
  const unknown: [Watched, string][] = [];
  for (const p of parents) {
    const state = stateAsOf(p, failedAt);
    // A fresh check saw it down: its own next result will raise its alert.
    if (state === "down") return { hold: `held: parent ${p.name} down`, down: true };
    if (state === "up") continue;
    const why = await freshOrWhy(db, p, failedAt, nowMs, ask);
    if (why === "waiting") return { hold: `held: checking parent ${p.name} now` };
    unknown.push([p, why]);
  }
  if (unknown.length > 0) {
    const [p, why] = unknown[0]!;
    return { release: `released: parent ${p.name}'s state unknown (${why})` };
  }
  return { release: "released" };
}

/** A hold comes due: dropped if the child moved on, kept (and logged once as suppressed) while held, else released. */
export async function fireHold(
  db: Db,
  t: Timer,
  queue: (sends: TimerSend[]) => Promise<void>,
  nowMs: number,
  recheckMs: number,
  ask?: AskCheck,
): Promise<"closed" | "held" | { released: string }> {
  const [[child], [newest]] = await db.batch(monitorAndNewestEvent(db, t.monitorId));
  if (!child || child.deletedAt !== null || child.status === "active" || newest?.id !== t.eventId) {
    await db
      .update(alertTimer)
      .set({ firedAt: nowMs, outcome: t.outcome ?? "dropped" })
      .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));
    return "closed";
  }
  const [ev] = await db.select().from(statusEvent).where(eq(statusEvent.id, t.eventId));
  const v = await verdict(db, t, ev!.cronTimestamp, nowMs, ask);
  if ("hold" in v) {
    const wait = db
      .update(alertTimer)
      .set({ outcome: v.hold, dueAt: nowMs + recheckMs })
      .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));
    // Each channel's log says once that the alert is held for a parent.
    const logged = v.down
      ? await db
          .select({ id: notificationDelivery.id })
          .from(notificationDelivery)
          .where(and(eq(notificationDelivery.eventId, t.eventId), eq(notificationDelivery.outcome, "suppressed")))
          .limit(1)
      : [{ id: 0 }];
    const channelIds = logged.length === 0 ? await channelsForEvent(db, t.eventId) : [];
    await writeBatch(db, [
      ...(channelIds.length > 0
        ? [
            db.insert(notificationDelivery).values(
              channelIds.map((channelId) => ({
                eventId: t.eventId,
                channelId,
                attempt: 0,
                outcome: "suppressed" as const,
                error: v.hold.replace(/^held: /, "suppressed: "),
                createdAt: nowMs,
              })),
            ),
          ]
        : []),
      wait,
    ]);
    return "held";
  }
  // The child is known down (or its parents' state cannot be known in time): its alert goes out now.
  await planFollowUps(db, ev!, nowMs);
  await queue((await channelsForEvent(db, t.eventId)).map((channelId) => ({ eventId: t.eventId, channelId, round: 0 })));
  await db
    .update(alertTimer)
    .set({ firedAt: nowMs, outcome: v.release })
    .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));
  return { released: v.release };
}

/** Why a monitor's current alert is held or was let go after a hold, for its page; null when it has no hold. */
export async function heldAlert(db: Db, workspaceId: number, monitorId: number) {
  const [row] = await db
    .select({
      eventId: alertTimer.eventId,
      status: statusEvent.status,
      reason: alertTimer.outcome,
      pending: sql<boolean>`${alertTimer.firedAt} is null`,
      firedAt: alertTimer.firedAt,
    })
    .from(alertTimer)
    .innerJoin(statusEvent, eq(statusEvent.id, alertTimer.eventId))
    .where(and(eq(alertTimer.workspaceId, workspaceId), eq(alertTimer.monitorId, monitorId), eq(alertTimer.kind, "hold")))
    .orderBy(desc(alertTimer.eventId))
    .limit(1);
  if (!row) return null;
  const [newest] = await newestEvent(db, monitorId);
  // Only the current alert's hold: once the monitor has recovered, the page has nothing to explain.
  if (newest?.id !== row.eventId) return null;
  return {
    eventId: row.eventId,
    held: Boolean(row.pending),
    reason: row.reason ?? "held: waiting for its parents' results of the same moment",
    firedAt: row.firedAt,
  };
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
