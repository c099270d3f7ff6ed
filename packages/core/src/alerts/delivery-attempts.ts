// The delivery log as attempts: a row is written when an attempt starts and settled once its outcome is known.
// The attempts that start (or end) together are written together: one statement for all of them, shared by the
// concurrent deliveries of one process (a thousand alerts at once are a few writes, not two thousand).
import {
  allFulfilled,
  coalesced,
  type Db,
  inPasses,
  notificationChannel,
  notificationDelivery,
  rowsTable,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";

export interface StartedAttempt {
  /** The attempt's row in the delivery log. */
  id: number;
  /** 1 for the first attempt of this event to this channel, counted from the log (a restart does not reset it). */
  attempt: number;
}

export type AttemptKey = { eventId: number; channelId: number; round: number; nowMs: number };
const keyOf = (k: { eventId: number; channelId: number; round: number }) => `${k.eventId}:${k.channelId}:${k.round}`;

/**
 * The statements that open the next attempt of each key (see `startAttempt`), two per pass, and how to read the
 * attempts they opened from their results. `onlyIf`: a condition on the key (v.column1 event, v.column2 channel,
 * v.column3 round); a key that does not meet it opens nothing.
 */
export function attemptWrites(keys: readonly AttemptKey[], onlyIf: SQL = sql`true`) {
  const d = notificationDelivery;
  const ordered = inPasses(keys, keyOf);
  const writes = ordered.flatMap((pass) => {
    const v = sql`${rowsTable(pass.map((k) => [k.eventId, k.channelId, k.round, k.nowMs]))} as v`;
    const same = sql`${d.eventId} = v.column1 and ${d.channelId} = v.column2 and ${d.round} = v.column3`;
    return [
      sql`update ${d} set outcome = 'error', next_retry_at = null,
        error = case when ${d.outcome} = 'sending' then 'stopped before the answer came (workflows restarted)' else ${d.error} end,
        finished_at = coalesce(${d.finishedAt}, v.column4)
        from ${v} where ${same} and ${d.outcome} in ('sending', 'retrying') and ${onlyIf}`,
      sql`insert into ${d} (event_id, channel_id, attempt, outcome, round, created_at)
        select v.column1, v.column2, coalesce((select max(p.attempt) from ${d} p where p.event_id = v.column1 and p.channel_id = v.column2 and p.round = v.column3), 0) + 1, 'sending', v.column3, v.column4
        from ${v} where ${onlyIf} returning id, event_id, channel_id, round, attempt`,
    ];
  });
  /** `results`: those of `writes`, in order. A key that opened nothing maps to undefined. */
  const started = (results: { rows: ArrayLike<unknown>[] }[]) => {
    const out = new Map<AttemptKey, StartedAttempt | undefined>();
    for (const [i, pass] of ordered.entries()) {
      const rows = new Map(results[2 * i + 1]!.rows.map((r) => [`${r[1]}:${r[2]}:${r[3]}`, { id: Number(r[0]), attempt: Number(r[4]) }]));
      for (const k of pass) out.set(k, rows.get(keyOf(k)));
    }
    return out;
  };
  return { writes, started };
}

const startAttempts = coalesced(async (db: Db, keys: AttemptKey[]) => {
  const { writes, started } = attemptWrites(keys);
  const opened = started(await writeBatch(db, writes));
  return allFulfilled(keys.map((k) => opened.get(k)!));
});

/**
 * Opens the next attempt of one event's delivery (or of one reminder or escalation round) to one channel as
 * `sending`. The attempt before it is over by now (one job runs a delivery at a time): a `retrying` row's retry
 * is this one, and a `sending` row was cut off by a crash; both become `error`, so the log never shows a retry
 * as due once a later attempt ran. Round 0 is the event itself; a reminder or escalation step (its timer's id)
 * counts its own attempts.
 */
export async function startAttempt(db: Db, eventId: number, channelId: number, round = 0, nowMs = Date.now()): Promise<StartedAttempt> {
  return startAttempts(db, { eventId, channelId, round, nowMs });
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

const finishAttempts = coalesced(async (db: Db, done: (AttemptOutcome & { id: number; nowMs: number })[]) => {
  const d = notificationDelivery;
  const c = notificationChannel;
  const rows = done.map((o) => [
    o.id,
    o.outcome,
    o.responseCode ?? null,
    o.error?.slice(0, 1000) ?? null,
    o.outcome === "retrying" ? (o.nextRetryAt ?? null) : null,
    o.nowMs,
  ]);
  const sent = [...new Set(done.filter((o) => o.outcome === "sent").map((o) => o.channelId))];
  const failed = done.filter((o) => o.outcome === "failed");
  await writeBatch(db, [
    sql`update ${d} set outcome = v.column2, response_code = v.column3, error = v.column4, next_retry_at = v.column5, finished_at = v.column6
      from ${rowsTable(rows)} as v where ${d.id} = v.column1`,
    ...(sent.length > 0 ? [db.update(c).set({ failingSince: null }).where(inArray(c.id, sent))] : []),
    ...failed.map((o) =>
      db
        .update(c)
        .set({ failingSince: o.nowMs })
        .where(and(eq(c.id, o.channelId), isNull(c.failingSince))),
    ),
  ]);
  return allFulfilled(done.map(() => undefined));
});

/** Settles an attempt's row; a success clears the channel's failing mark, a final failure sets it (once). */
export async function finishAttempt(db: Db, id: number, o: AttemptOutcome, nowMs = Date.now()): Promise<void> {
  return finishAttempts(db, { ...o, id, nowMs });
}
