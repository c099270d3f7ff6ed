// The stored deadlines of an alert (reminders, escalation steps, holds for a parent): planned when the alert is
// sent, fired by the workflows' tick. Sending is queued before the timer is marked, with job ids and a delivery
// log keyed by the timer, so a crash between the two repeats the queueing, never the message.
import { alertAck, alertTimer, type Db, notificationDelivery, writeBatch } from "@vigil/db-schema";
import { and, eq, inArray, isNull, lte, ne, notExists, or, sql } from "drizzle-orm";
import { fireHold } from "./dependencies";
import { monitorAndNewestEvent, policyOf, reminderIntervals, type TimerSend } from "./follow-ups";
import type { AskCheck } from "./fresh-checks";

type Timer = typeof alertTimer.$inferSelect;

/** A held alert let go, and why ("released", or the parent's state that could not be known). */
export interface HoldRelease {
  monitorId: number;
  eventId: number;
  reason: string;
}

/** Is this timer's alert still worth sending: the monitor's newest event, still down, not acknowledged. */
async function alertState(db: Db, t: Timer) {
  const [[m], [newest], [ack]] = await db.batch([
    ...monitorAndNewestEvent(db, t.monitorId),
    db.select({ id: alertAck.eventId }).from(alertAck).where(eq(alertAck.eventId, t.eventId)),
  ]);
  if (!m || m.deletedAt !== null || m.status === "active") return "recovered";
  if (newest?.id !== t.eventId) return "superseded";
  if (ack) return "acknowledged";
  return "open";
}

/** The timer after this one fires, if any: the next reminder, or the last step again. */
async function nextOf(db: Db, t: Timer, nowMs: number): Promise<number | null> {
  let every: number | undefined;
  if (t.kind === "remind") every = (await reminderIntervals(db, t.monitorId)).get(t.key);
  else {
    const policy = await policyOf(db, t.monitorId);
    if (policy && t.key === policy.steps.length - 1 && policy.repeatLastEveryMinutes)
      every = Math.round(policy.repeatLastEveryMinutes * 60_000);
  }
  if (!every) return null;
  // After an outage, one catch-up message, not one per missed interval.
  let due = t.dueAt + every;
  while (due <= nowMs) due += every;
  return due;
}

const close = (db: Db, t: Timer, outcome: string, nowMs: number) =>
  db
    .update(alertTimer)
    .set({ firedAt: nowMs, outcome })
    .where(and(eq(alertTimer.id, t.id), isNull(alertTimer.firedAt)));

/**
 * Fires every due timer: reminders and steps queue their sends (through `queue`, idempotent by job id)
 * and then record the firing with the next timer in one write; holds release or keep waiting (`ask`: how a
 * parent, or a held child once its parent is back, is checked afresh).
 */
export async function fireDueTimers(
  db: Db,
  queue: (sends: TimerSend[]) => Promise<void>,
  opts: { nowMs?: number; limit?: number; recheckMs?: number; ask?: AskCheck } = {},
): Promise<{ sent: number; closed: number; held: number; released: number; releases: HoldRelease[] }> {
  const nowMs = opts.nowMs ?? Date.now();
  const due = await db
    .select()
    .from(alertTimer)
    .where(and(isNull(alertTimer.firedAt), lte(alertTimer.dueAt, nowMs)))
    .orderBy(alertTimer.dueAt, alertTimer.id)
    .limit(opts.limit ?? 500);
  const out = { sent: 0, closed: 0, held: 0, released: 0, releases: [] as HoldRelease[] };
  for (const t of due) {
    if (t.kind === "hold") {
      const r = await fireHold(db, t, queue, nowMs, opts.recheckMs ?? 5_000, opts.ask);
      if (typeof r === "string") out[r]++;
      else {
        out.released++;
        out.releases.push({ monitorId: t.monitorId, eventId: t.eventId, reason: r.released });
      }
      continue;
    }
    const state = await alertState(db, t);
    if (state !== "open") {
      await close(db, t, state, nowMs);
      out.closed++;
      continue;
    }
    await queue(t.channelIds.map((channelId) => ({ eventId: t.eventId, channelId, round: t.id })));
    const next = await nextOf(db, t, nowMs);
    await writeBatch(db, [
      close(db, t, "sent", nowMs),
      ...(next !== null
        ? [
            db
              .insert(alertTimer)
              .values({ ...t, id: undefined, round: t.round + 1, dueAt: next, firedAt: null, outcome: null, createdAt: nowMs })
              .onConflictDoNothing(),
          ]
        : []),
    ]);
    out.sent += t.channelIds.length;
  }
  return out;
}

const NOT_SENT = {
  acknowledged: "not sent: the alert was acknowledged before this went out",
  recovered: "not sent: the monitor recovered before this went out",
  superseded: "not sent: a newer alert replaced this one before it went out",
} as const;

/**
 * Checks a reminder or escalation send (`round` = its timer's id) just before it goes out: one that waited in
 * the queue or in retries while its alert was acknowledged, recovered or superseded is dropped. The drop is
 * logged on the channel (open attempts closed, one `suppressed` row), and a step that reached none of its
 * channels no longer counts as notified, so the recovery does not go where the alert never went.
 * Returns why it was dropped, or null when it should be sent.
 */
export async function dropStaleFollowUp(
  db: Db,
  eventId: number,
  channelId: number,
  round: number,
  nowMs = Date.now(),
): Promise<string | null> {
  const t = await timerOf(db, round);
  if (!t || t.eventId !== eventId) return null;
  const state = await alertState(db, t);
  if (state === "open") return null;
  const reason = NOT_SENT[state];
  const d = notificationDelivery;
  const same = and(eq(d.eventId, eventId), eq(d.round, round));
  await writeBatch(db, [
    db
      .update(d)
      .set({ outcome: "error", nextRetryAt: null, error: sql`coalesce(${d.error}, ${reason})`, finishedAt: nowMs })
      .where(and(same, eq(d.channelId, channelId), inArray(d.outcome, ["sending", "retrying"]))),
    sql`insert into ${d} (event_id, channel_id, attempt, outcome, error, round, created_at, finished_at)
      select ${eventId}, ${channelId}, 0, 'suppressed', ${reason}, ${round}, ${nowMs}, ${nowMs}
      where not exists (select 1 from ${d} where ${same} and ${d.channelId} = ${channelId} and ${d.outcome} = 'suppressed')`,
    db
      .update(alertTimer)
      .set({ outcome: state })
      .where(
        and(
          eq(alertTimer.id, round),
          eq(alertTimer.outcome, "sent"),
          // Reached, or may have: sent, in flight, or cut off without an answer (a refusal did not reach).
          notExists(
            db
              .select({ one: sql`1` })
              .from(d)
              .where(and(same, or(inArray(d.outcome, ["sent", "sending"]), and(ne(d.outcome, "suppressed"), isNull(d.responseCode))))),
          ),
        ),
      ),
  ]);
  return reason;
}

/** What a timer-sent message is, for its wording: a reminder or an escalation step. */
export async function timerOf(db: Db, id: number) {
  const [t] = await db.select().from(alertTimer).where(eq(alertTimer.id, id));
  return t ?? null;
}

/** A monitor's pending and recent timers, for the dashboard ("next reminder at…"). */
export async function pendingTimers(db: Db, workspaceId: number, monitorId: number) {
  return db
    .select({
      id: alertTimer.id,
      kind: alertTimer.kind,
      key: alertTimer.key,
      round: alertTimer.round,
      dueAt: alertTimer.dueAt,
      outcome: alertTimer.outcome,
    })
    .from(alertTimer)
    .where(and(eq(alertTimer.workspaceId, workspaceId), eq(alertTimer.monitorId, monitorId), isNull(alertTimer.firedAt)))
    .orderBy(alertTimer.dueAt);
}
