// The delivery log as attempts: a row is written when an attempt starts and settled once its outcome is known.
import { type Db, notificationChannel, notificationDelivery, writeBatch } from "@vigil/db-schema";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";

export interface StartedAttempt {
  /** The attempt's row in the delivery log. */
  id: number;
  /** 1 for the first attempt of this event to this channel, counted from the log (a restart does not reset it). */
  attempt: number;
}

/**
 * Opens the next attempt of one event's delivery (or of one reminder or escalation round) to one channel as `sending`. The attempt before it is over
 * by now (one job runs a delivery at a time): a `retrying` row's retry is this one, and a `sending` row was
 * cut off by a crash; both become `error`, so the log never shows a retry as due once a later attempt ran.
 */
export async function startAttempt(db: Db, eventId: number, channelId: number, round = 0, nowMs = Date.now()): Promise<StartedAttempt> {
  const d = notificationDelivery;
  // Round 0 is the event itself; a reminder or escalation step (its timer's id) counts its own attempts.
  const same = and(eq(d.eventId, eventId), eq(d.channelId, channelId), eq(d.round, round));
  const [, inserted] = await writeBatch(db, [
    db
      .update(d)
      .set({
        outcome: "error",
        nextRetryAt: null,
        error: sql`case when ${d.outcome} = 'sending' then 'stopped before the answer came (workflows restarted)' else ${d.error} end`,
        finishedAt: sql`coalesce(${d.finishedAt}, ${nowMs})`,
      })
      .where(and(same, inArray(d.outcome, ["sending", "retrying"]))),
    db
      .insert(d)
      .select(
        db
          .select({
            id: sql`null`.as("id"),
            eventId: sql`${eventId}`.as("event_id"),
            channelId: sql`${channelId}`.as("channel_id"),
            attempt: sql`coalesce(max(${d.attempt}), 0) + 1`.as("attempt"),
            outcome: sql`'sending'`.as("outcome"),
            responseCode: sql`null`.as("response_code"),
            error: sql`null`.as("error"),
            nextRetryAt: sql`null`.as("next_retry_at"),
            round: sql`${round}`.as("round"),
            createdAt: sql`${nowMs}`.as("created_at"),
            finishedAt: sql`null`.as("finished_at"),
          })
          .from(d)
          .where(same),
      )
      .returning({ id: d.id, attempt: d.attempt }),
  ]);
  const row = inserted!.rows[0]!;
  return { id: Number(row[0]), attempt: Number(row[1]) };
}

/** The receiver has not answered within the channel's timeout: said on the row while the attempt still waits. */
export async function noteSlowAttempt(db: Db, id: number, message: string): Promise<void> {
  await db
    .update(notificationDelivery)
    .set({ error: message })
    .where(and(eq(notificationDelivery.id, id), eq(notificationDelivery.outcome, "sending")));
}

export interface AttemptOutcome {
  channelId: number;
  outcome: "sent" | "retrying" | "failed";
  responseCode?: number;
  error?: string;
  /** For "retrying": when the next attempt is due. */
  nextRetryAt?: number;
}

/** Settles an attempt's row; a success clears the channel's failing mark, a final failure sets it (once). */
export async function finishAttempt(db: Db, id: number, o: AttemptOutcome, nowMs = Date.now()): Promise<void> {
  const c = notificationChannel;
  await writeBatch(db, [
    db
      .update(notificationDelivery)
      .set({
        outcome: o.outcome,
        responseCode: o.responseCode ?? null,
        error: o.error?.slice(0, 1000) ?? null,
        nextRetryAt: o.outcome === "retrying" ? (o.nextRetryAt ?? null) : null,
        finishedAt: nowMs,
      })
      .where(eq(notificationDelivery.id, id)),
    ...(o.outcome === "sent"
      ? [db.update(c).set({ failingSince: null }).where(eq(c.id, o.channelId))]
      : o.outcome === "failed"
        ? [
            db
              .update(c)
              .set({ failingSince: nowMs })
              .where(and(eq(c.id, o.channelId), isNull(c.failingSince))),
          ]
        : []),
  ]);
}
