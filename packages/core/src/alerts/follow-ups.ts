// What the timers and the dependency holds share: the reminders and escalation steps planned when an alert is
// sent (or released late), and whether the alert still stands.
import { alertTimer, type Db, escalationPolicy, monitor, monitorChannel, notificationChannel, statusEvent } from "@vigil/db-schema";
import { and, desc, eq } from "drizzle-orm";

/** One message a timer sends: the event again, to one channel, as round `round` (the timer's id). */
export interface TimerSend {
  eventId: number;
  channelId: number;
  round: number;
}

/** The reminder interval of each linked channel: the link's own, else the monitor's. */
export async function reminderIntervals(db: Db, monitorId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ channelId: monitorChannel.channelId, link: monitorChannel.remindEveryMs, monitor: monitor.remindEveryMs })
    .from(monitorChannel)
    .innerJoin(monitor, eq(monitor.id, monitorChannel.monitorId))
    .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
    .where(and(eq(monitorChannel.monitorId, monitorId), eq(notificationChannel.enabled, true)));
  const out = new Map<number, number>();
  for (const r of rows) {
    const every = r.link ?? r.monitor;
    if (every) out.set(r.channelId, every);
  }
  return out;
}

export async function policyOf(db: Db, monitorId: number) {
  const [row] = await db
    .select({ policy: escalationPolicy })
    .from(monitor)
    .innerJoin(escalationPolicy, eq(escalationPolicy.id, monitor.escalationPolicyId))
    .where(eq(monitor.id, monitorId));
  return row?.policy ?? null;
}

type FollowUp = Omit<typeof alertTimer.$inferInsert, "id">;

/** The reminder and escalation timers of an alert, counted from `baseMs`. */
export function followUpRows(
  ev: { id: number; workspaceId: number; monitorId: number },
  intervals: ReadonlyMap<number, number>,
  policy: { steps: { afterMinutes: number; channelIds: number[] }[] } | null,
  baseMs: number,
): FollowUp[] {
  const at = { workspaceId: ev.workspaceId, monitorId: ev.monitorId, eventId: ev.id };
  const rows: FollowUp[] = [];
  for (const [channelId, every] of intervals)
    rows.push({ ...at, kind: "remind", key: channelId, round: 1, channelIds: [channelId], dueAt: baseMs + every });
  for (const [i, step] of (policy?.steps ?? []).entries())
    rows.push({
      ...at,
      kind: "step",
      key: i,
      round: 0,
      channelIds: step.channelIds,
      dueAt: baseMs + Math.round(step.afterMinutes * 60_000),
    });
  return rows;
}

/** Reminders and escalation steps of a sent alert, counted from `baseMs`; planning twice adds nothing. */
export async function planFollowUps(db: Db, ev: { id: number; workspaceId: number; monitorId: number }, baseMs: number): Promise<void> {
  const rows = followUpRows(ev, await reminderIntervals(db, ev.monitorId), await policyOf(db, ev.monitorId), baseMs);
  if (rows.length > 0) await db.insert(alertTimer).values(rows).onConflictDoNothing();
}

/** Whether a held or planned alert still stands: its monitor's status and newest event, as two statements of one batch. */
export const monitorAndNewestEvent = (db: Db, monitorId: number) =>
  [
    db.select({ status: monitor.status, deletedAt: monitor.deletedAt }).from(monitor).where(eq(monitor.id, monitorId)),
    newestEvent(db, monitorId),
  ] as const;

/** The monitor's newest status event (its current alert, or the recovery that ended it), as a query. */
export const newestEvent = (db: Db, monitorId: number) =>
  db.select({ id: statusEvent.id }).from(statusEvent).where(eq(statusEvent.monitorId, monitorId)).orderBy(desc(statusEvent.id)).limit(1);
