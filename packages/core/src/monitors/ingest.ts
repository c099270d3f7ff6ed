import { CHECK_STATUSES, FREQUENCIES, frequencyMs, IngestBatch, type IngestResult } from "@vigil/api-contract";
import {
  checkResultRow,
  type Db,
  inIds,
  monitor,
  monitorEvaluation,
  monitorLocationStatus,
  privateLocation,
  rowsTable,
  writeBatch,
} from "@vigil/db-schema";
import { eq, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { parseInput } from "../errors";

export interface IngestLocation {
  id: number;
  workspaceId: number;
  region: string;
  /** The hash of the key that named the location, when that was not read in this request: the write checks it. */
  keyHash?: string;
}

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  ignored: number;
  /** Results whose slot lies ahead of the server's clock by more than `MAX_CLOCK_SKEW_MS`; not stored. */
  refused: number;
  /** Newest accepted slot of each monitor this batch may move (the others were settled as stored). */
  toEvaluate: { monitorId: number; cronTimestamp: number }[];
  /** The location was deleted (or its key names it no more): nothing was stored. */
  locationGone: boolean;
}

/**
 * How far ahead of the server's clock a result's slot may be: probes' clocks drift a little. A slot
 * further ahead is refused, or one result could pin a monitor's status until that time comes (the
 * upsert keeps the newest slot).
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const dialect = new SQLiteAsyncDialect();

/**
 * Monitors this batch cannot move, their watermark advanced in the batch's own transaction so no evaluation
 * is queued for them: the location's newer result repeats its previous status, which evaluation has already
 * read, and nothing else about the monitor has changed since (no result of another location waiting, every
 * location that voted still live, no live location that has not voted, no edit, and a streak already long
 * enough that the monitor's thresholds cannot make this result change its vote). This is most results
 * of a healthy install. Anything else is evaluated as before, and the status machine stays in evaluate.ts.
 */
function settleUnchanged(
  location: IngestLocation,
  latest: readonly { monitorId: number; status: string; cronTimestamp: number }[],
  nowMs: number,
) {
  const s = monitorLocationStatus;
  const rows = rowsTable(latest.map((r) => [r.monitorId, r.status, r.cronTimestamp]));
  const me = monitorEvaluation;
  const q: SQL = sql`update ${me} set
      through = max(${me.through}, (select coalesce(max(${checkResultRow.id}), 0) from ${checkResultRow})),
      cron = max(coalesce(${me.cron}, v.column3), v.column3),
      evaluated_at = ${nowMs}
    from ${rows} as v
    where ${me.monitorId} = v.column1 and ${standing(location)}
      and (select ${privateLocation.online} from ${privateLocation} where ${privateLocation.id} = ${location.id}) = 1
      and exists (select 1 from ${s} join ${monitor} t on t.id = ${s.monitorId} where ${s.monitorId} = v.column1 and ${s.locationId} = ${location.id}
        and ${s.status} = v.column2 and ${s.cronTimestamp} < v.column3 and ${s.resultRowid} <= ${me.through}
        and ${s.streak} >= max(t.failure_threshold, t.success_threshold))
      and not exists (select 1 from ${s} join ${privateLocation} p on p.id = ${s.locationId} where ${s.monitorId} = v.column1
        and (${s.resultRowid} is null or ${s.resultRowid} > ${me.through} or p.online = 0 or p.deleted_at is not null))
      and exists (select 1 from ${monitor} m where m.id = v.column1 and m.deleted_at is null and m.updated_at <= ${me.evaluatedAt}
        and (select count(*) from ${privateLocation} p where p.workspace_id = ${location.workspaceId} and p.online = 1
          and p.deleted_at is null and p.region in (select value from json_each(m.regions)))
          = (select count(*) from ${s} where ${s.monitorId} = v.column1))
    returning ${me.monitorId}`;
  return { toSQL: () => dialect.sqlToQuery(q) };
}

/**
 * Per monitor in a batch from one location: how many of its newest results, in slot order, are on the same
 * side (error or not) as the newest (`run`), and whether that is all of them (`whole`: the stored streak goes on).
 */
function batchStreaks(results: readonly { monitorId: number; cronTimestamp: number; status: string }[]) {
  const byMonitor = new Map<number, { cron: number; error: boolean }[]>();
  for (const r of results) {
    const list = byMonitor.get(r.monitorId) ?? [];
    list.push({ cron: r.cronTimestamp, error: r.status === "error" });
    byMonitor.set(r.monitorId, list);
  }
  const out = new Map<number, { run: number; whole: boolean }>();
  for (const [id, list] of byMonitor) {
    list.sort((a, b) => b.cron - a.cron);
    let run = 1;
    while (run < list.length && list[run]!.error === list[0]!.error) run++;
    out.set(id, { run, whole: run === list.length });
  }
  return out;
}

/**
 * Stores a probe's batch idempotently: a result whose (monitor, location, slot) is already stored is a
 * duplicate. Accepted results stay pending until an evaluation has read past them.
 */
export async function recordResults(db: Db, location: IngestLocation, body: unknown, nowMs = Date.now()): Promise<IngestOutcome> {
  return recordBatch(db, location, parseInput(IngestBatch, body, "results"), nowMs);
}

/** `recordResults` for a batch its caller has already validated (the server's route schema), so it is parsed once. */
export async function recordBatch(db: Db, location: IngestLocation, batch: IngestBatch, nowMs = Date.now()): Promise<IngestOutcome> {
  const results = batch.results.filter((r) => r.cronTimestamp <= nowMs + MAX_CLOCK_SKEW_MS);
  const refused = batch.results.length - results.length;
  const nothing = { accepted: 0, duplicates: 0, ignored: 0, refused, toEvaluate: [] };
  if (results.length === 0) {
    const [seen] = await writeBatch(db, [seenWrite(location, nowMs)]);
    return { ...nothing, locationGone: seen!.rows.length === 0 };
  }
  // The latest slot per monitor in this batch; the upsert's WHERE keeps an older, late result from
  // overwriting a newer one already stored. Re-sent rows rewrite identical values.
  const latest = new Map<number, (typeof results)[number]>();
  for (const r of results) {
    const prev = latest.get(r.monitorId);
    if (!prev || r.cronTimestamp > prev.cronTimestamp) latest.set(r.monitorId, r);
  }
  const streaks = batchStreaks(results);
  const out = await writeBatch(db, ingestWrites(location, results, [...latest.values()], streaks, nowMs));
  if (out[5]!.rows.length === 0) return { ...nothing, locationGone: true };
  // Read in the write's own transaction: a monitor deleted (or another workspace's) has nothing stored.
  const owned = new Set(out[0]!.rows.map((r) => Number(r[0])));
  const settled = new Set(out[2]!.rows.map((r) => Number(r[0])));
  const kept = results.reduce((n, r) => n + (owned.has(r.monitorId) ? 1 : 0), 0);
  // Counted, not read back: a duplicate inserts nothing. Every monitor in the batch is (re)evaluated,
  // which is idempotent, so a re-sent batch costs one evaluation and no per-row round trip.
  const accepted = out[1]!.rowsAffected;
  return {
    accepted,
    duplicates: kept - accepted,
    ignored: results.length - kept,
    refused,
    toEvaluate: [...latest.values()]
      .filter((r) => owned.has(r.monitorId) && !settled.has(r.monitorId))
      .map((r) => ({ monitorId: r.monitorId, cronTimestamp: r.cronTimestamp })),
    locationGone: false,
  };
}

/** The location still stands and, given its key's hash, that key names it: else a batch writes nothing. */
const standing = (l: IngestLocation) =>
  sql`exists (select 1 from ${privateLocation} p where p.id = ${l.id} and p.deleted_at is null${l.keyHash === undefined ? sql`` : sql` and p.key_hash = ${l.keyHash}`})`;

/** Marks the location seen; returns its id, or nothing when it no longer stands. */
const seenWrite = (l: IngestLocation, nowMs: number) =>
  sql`update ${privateLocation} set last_seen_at = ${nowMs}, online = 1 where ${privateLocation.id} = ${l.id} and ${standing(l)}
    returning ${privateLocation.id}`;

/**
 * A batch's writes, each one set-based statement over all its rows (sent as one JSON value, so a batch of a
 * thousand costs a few bound values, not twelve thousand): the live monitors among the batch's (the rest are
 * ignored), the results, the settled monitors, the per-location statuses, the location seen. One atomic round
 * trip: all of it lands together or not at all.
 */
function ingestWrites(
  location: IngestLocation,
  results: readonly IngestResult[],
  latest: readonly IngestResult[],
  streaks: ReturnType<typeof batchStreaks>,
  nowMs: number,
) {
  // Live monitors of the location's workspace only: a deleted monitor's results are refused at once. A
  // condition, not a join: joined, SQLite may scan the workspace's monitors and re-read the rows for each.
  const live = sql`where ${standing(location)}
    and exists (select 1 from ${monitor} m where m.id = v.column1 and m.workspace_id = ${location.workspaceId} and m.deleted_at is null)`;
  const owned = sql`select ${monitor.id} from ${monitor} where ${monitor.workspaceId} = ${location.workspaceId} and ${monitor.deletedAt} is null
    and ${inIds(monitor.id, [...streaks.keys()])} and ${standing(location)}`;
  // v: 1 monitor, 2 slot, 3 status, 4 latency, 5 start offset, 6 status code, 7 error, 8 attempts, 9 timings, 10 assertions.
  const resultRows = rowsTable(
    results.map((r) => {
      // The breakdown explains a slow or failed check; an ok one is its latency.
      const ok = r.status === "success";
      return [
        r.monitorId,
        r.cronTimestamp,
        CHECK_STATUSES.indexOf(r.status),
        Math.round(r.latencyMs),
        r.startedAt - r.cronTimestamp,
        r.statusCode ?? null,
        r.errorMessage ?? null,
        r.attempts,
        ok || !r.timings ? null : JSON.stringify(r.timings),
        ok || !r.assertions ? null : JSON.stringify(r.assertions),
      ];
    }),
  );
  const inserts = sql`insert into ${checkResultRow} (workspace_id, monitor_id, cron_timestamp, location_id, status, latency_ms,
      start_offset_ms, status_code, error_message, attempts, timings, assertions)
    select ${location.workspaceId}, v.column1, v.column2, ${location.id}, v.column3, v.column4, v.column5, v.column6, v.column7,
      v.column8, v.column9, v.column10
    from ${resultRows} as v ${live} on conflict do nothing`;
  // v: 1 monitor, 2 status, 3 slot, 4 result id, 5 latency, 6 status code, 7 error, 8 certificate end, 9 streak in the batch.
  const statusRows = rowsTable(
    latest.map((r) => [
      r.monitorId,
      r.status,
      r.cronTimestamp,
      r.id,
      Math.round(r.latencyMs),
      r.statusCode ?? null,
      r.errorMessage ?? null,
      r.certificate?.notAfter ?? null,
      streaks.get(r.monitorId)!.run,
    ]),
  );
  const continues = [...streaks].filter(([, s]) => s.whole).map(([id]) => id);
  const s = monitorLocationStatus;
  const r = checkResultRow;
  // A re-sent result keeps the streak; a batch wholly on the stored side continues it; anything else starts one.
  const upsert = sql`insert into ${s} (monitor_id, location_id, status, cron_timestamp, result_id, result_rowid, latency_ms, status_code,
      error_message, cert_not_after, streak, updated_at)
    select v.column1, ${location.id}, v.column2, v.column3, v.column4,
      (select ${r.id} from ${r} where ${r.monitorId} = v.column1 and ${r.cronTimestamp} = v.column3 and ${r.locationId} = ${location.id}),
      v.column5, v.column6, v.column7, v.column8, v.column9, ${nowMs}
    from ${statusRows} as v ${live}
    on conflict (monitor_id, location_id) do update set status = excluded.status, cron_timestamp = excluded.cron_timestamp,
      result_id = excluded.result_id, result_rowid = excluded.result_rowid, latency_ms = excluded.latency_ms,
      status_code = excluded.status_code, error_message = excluded.error_message, cert_not_after = excluded.cert_not_after,
      streak = case when ${s.cronTimestamp} = excluded.cron_timestamp then ${s.streak}
        when (${s.status} = 'error') = (excluded.status = 'error') and ${inIds(s.monitorId, continues)}
          then ${s.streak} + excluded.streak
        else excluded.streak end,
      updated_at = excluded.updated_at
    where excluded.cron_timestamp >= ${s.cronTimestamp}`;
  // Settled before the upsert (it compares with the previous status) and after the inserts (the watermark covers the new rows).
  // Missed slots are counted before the upsert too: they are the gap after the stored slot.
  return [owned, inserts, settleUnchanged(location, latest, nowMs), missedSlots(location, results), upsert, seenWrite(location, nowMs)];
}

/** A monitor's interval in SQL, from its `frequency` column. */
export const intervalSql = (frequency: string) =>
  sql.raw(`(case ${frequency} ${FREQUENCIES.map((f) => `when '${f}' then ${frequencyMs(f)}`).join(" ")} end)`);

/**
 * Slots no probe of the location ran, added to its count: for each monitor, the slots strictly between the
 * last slot counted (its stored result, or what a silent spell already counted) and the batch's newest, less
 * those the batch holds. Integer arithmetic: (2·gap − interval − 1) div (2·interval) is the number of slots in
 * the gap, rounded down from half an interval so that a frequency moved by an edit does not count. A monitor
 * edited since its last result counts nothing (it may have been paused, or its regions changed).
 */
function missedSlots(location: IngestLocation, results: readonly IngestResult[]) {
  // v: 1 monitor, 2 newest slot, 3 the batch's slots of the monitor (JSON; most often one).
  const byMonitor = new Map<number, Set<number>>();
  for (const r of results) {
    const slots = byMonitor.get(r.monitorId) ?? new Set<number>();
    slots.add(r.cronTimestamp);
    byMonitor.set(r.monitorId, slots);
  }
  const rows = rowsTable([...byMonitor].map(([id, slots]) => [id, Math.max(...slots), JSON.stringify([...slots])]));
  const s = monitorLocationStatus;
  const q: SQL = sql`update ${privateLocation} set slots_missed = slots_missed + coalesce((
      select sum(max(0, cast((2 * (g.n - g.w) - g.i - 1) / (2 * g.i) as integer)
        - (select count(*) from json_each(g.slots) where value > g.w and value < g.n)))
      from (select v.column1 as id, v.column2 as n, v.column3 as slots, max(${s.cronTimestamp}, coalesce(${s.missedThrough}, 0)) as w,
          ${intervalSql("m.frequency")} as i
        from ${rows} as v
        join ${s} on ${s.monitorId} = v.column1 and ${s.locationId} = ${location.id}
        join ${monitor} m on m.id = v.column1 and m.workspace_id = ${location.workspaceId} and m.deleted_at is null
          and m.updated_at <= ${s.updatedAt}) as g), 0)
    where ${privateLocation.id} = ${location.id} and ${standing(location)}`;
  return { toSQL: () => dialect.sqlToQuery(q) };
}

/** Marks a probe seen without results (it polls even when it has nothing to send). */
export async function touchLocation(db: Db, locationId: number, nowMs = Date.now()): Promise<void> {
  await db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, locationId));
}
