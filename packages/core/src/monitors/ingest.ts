import { IngestBatch } from "@vigil/api-contract";
import { checkResultRow, type Db, monitor, monitorEvaluation, monitorLocationStatus, privateLocation, writeBatch } from "@vigil/db-schema";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { parseInput } from "../errors";

export interface IngestLocation {
  id: number;
  workspaceId: number;
  region: string;
}

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  ignored: number;
  /** Results whose slot lies ahead of the server's clock by more than `MAX_CLOCK_SKEW_MS`; not stored. */
  refused: number;
  /** Newest accepted slot of each monitor this batch may move (the others were settled as stored). */
  toEvaluate: { monitorId: number; cronTimestamp: number }[];
}

/**
 * How far ahead of the server's clock a result's slot may be: probes' clocks drift a little. A slot
 * further ahead is refused, or one result could pin a monitor's status until that time comes (the
 * upsert keeps the newest slot).
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

// 12 values per row: 500 rows stay well under SQLite's 32,766 bound parameters, one statement per probe batch.
const CHUNK = 500;
/** Which of `wanted` are live monitors of the workspace, read fresh: a deleted monitor's results are refused at once. */
async function liveMonitorIds(db: Db, workspaceId: number, wanted: number[]): Promise<Set<number>> {
  const rows = await db
    .select({ id: monitor.id })
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), inArray(monitor.id, wanted), isNull(monitor.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

const dialect = new SQLiteAsyncDialect();

/**
 * Monitors this batch cannot move, their watermark advanced in the batch's own transaction so no evaluation
 * is queued for them: the location's newer result repeats its previous status, which evaluation has already
 * read, and nothing else about the monitor has changed since (no result of another location waiting, every
 * location that voted still live, no live location that has not voted, no edit, and a streak already long
 * enough that the monitor's thresholds cannot make this result change its vote). This is most results
 * of a healthy install. Anything else is evaluated as before, and the status machine stays in evaluate.ts.
 */
function settleUnchanged(location: IngestLocation, latest: { monitorId: number; status: string; cronTimestamp: number }[], nowMs: number) {
  const s = monitorLocationStatus;
  const rows = sql.join(
    latest.map((r) => sql`(${r.monitorId}, ${r.status}, ${r.cronTimestamp})`),
    sql`, `,
  );
  const me = monitorEvaluation;
  const q: SQL = sql`update ${me} set
      through = max(${me.through}, (select coalesce(max(${checkResultRow.id}), 0) from ${checkResultRow})),
      cron = max(coalesce(${me.cron}, v.column3), v.column3),
      evaluated_at = ${nowMs}
    from (values ${rows}) as v
    where ${me.monitorId} = v.column1
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
  const monitorIds = [...new Set(results.map((r) => r.monitorId))];
  const ownedIds = await liveMonitorIds(db, location.workspaceId, monitorIds);
  const keep = results.filter((r) => ownedIds.has(r.monitorId));
  if (keep.length === 0) {
    await touchLocation(db, location.id, nowMs);
    return { accepted: 0, duplicates: 0, ignored: results.length, refused, toEvaluate: [] };
  }
  // The latest slot per monitor in this batch; the upsert's WHERE keeps an older, late result from
  // overwriting a newer one already stored. Re-sent rows rewrite identical values.
  const latest = new Map<number, (typeof keep)[number]>();
  for (const r of keep) {
    const prev = latest.get(r.monitorId);
    if (!prev || r.cronTimestamp > prev.cronTimestamp) latest.set(r.monitorId, r);
  }
  const streaks = batchStreaks(keep);
  const inserts = [];
  for (let i = 0; i < keep.length; i += CHUNK) {
    const rows = keep.slice(i, i + CHUNK).map((r) => {
      const ok = r.status === "success";
      return {
        workspaceId: location.workspaceId,
        monitorId: r.monitorId,
        cronTimestamp: r.cronTimestamp,
        locationId: location.id,
        status: r.status,
        latencyMs: Math.round(r.latencyMs),
        startOffsetMs: r.startedAt - r.cronTimestamp,
        statusCode: r.statusCode ?? null,
        errorMessage: r.errorMessage ?? null,
        attempts: r.attempts,
        // The breakdown explains a slow or failed check; an ok one is its latency.
        timings: ok ? null : (r.timings ?? null),
        assertions: ok ? null : (r.assertions ?? null),
      };
    });
    inserts.push(db.insert(checkResultRow).values(rows).onConflictDoNothing());
  }
  const statusRows = [...latest.values()].map((r) => ({
    monitorId: r.monitorId,
    locationId: location.id,
    status: r.status,
    cronTimestamp: r.cronTimestamp,
    resultId: r.id,
    resultRowid: sql<number>`(select id from ${checkResultRow} where monitor_id = ${r.monitorId} and cron_timestamp = ${r.cronTimestamp} and location_id = ${location.id})`,
    latencyMs: Math.round(r.latencyMs),
    statusCode: r.statusCode ?? null,
    errorMessage: r.errorMessage ?? null,
    certNotAfter: r.certificate?.notAfter ?? null,
    streak: streaks.get(r.monitorId)!.run,
    updatedAt: nowMs,
  }));
  const continues = [...streaks].filter(([, s]) => s.whole).map(([id]) => id);
  const s = monitorLocationStatus;
  const upsert = db
    .insert(monitorLocationStatus)
    .values(statusRows)
    .onConflictDoUpdate({
      target: [monitorLocationStatus.monitorId, monitorLocationStatus.locationId],
      set: {
        status: sql`excluded.status`,
        cronTimestamp: sql`excluded.cron_timestamp`,
        resultId: sql`excluded.result_id`,
        resultRowid: sql`excluded.result_rowid`,
        latencyMs: sql`excluded.latency_ms`,
        statusCode: sql`excluded.status_code`,
        errorMessage: sql`excluded.error_message`,
        certNotAfter: sql`excluded.cert_not_after`,
        // A re-sent result keeps the streak; a batch wholly on the stored side continues it; anything else starts one.
        streak:
          continues.length === 0
            ? sql`case when ${s.cronTimestamp} = excluded.cron_timestamp then ${s.streak} else excluded.streak end`
            : sql`case when ${s.cronTimestamp} = excluded.cron_timestamp then ${s.streak} when (${s.status} = 'error') = (excluded.status = 'error') and ${s.monitorId} in (${sql.join(
                continues.map((id) => sql`${id}`),
                sql`, `,
              )}) then ${s.streak} + excluded.streak else excluded.streak end`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`excluded.cron_timestamp >= ${monitorLocationStatus.cronTimestamp}`,
    });
  const seen = db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, location.id));
  // Settled before the upsert (it compares with the previous status) and after the inserts (the watermark
  // covers the new rows). One atomic round trip: all of it lands together or not at all.
  const settle = settleUnchanged(location, [...latest.values()], nowMs);
  const out = await writeBatch(db, [...inserts, settle, upsert, seen]);
  const settled = new Set(out[inserts.length]!.rows.map((r) => Number(r[0])));
  // Counted, not read back: a duplicate inserts nothing. Every monitor in the batch is (re)evaluated,
  // which is idempotent, so a re-sent batch costs one evaluation and no per-row round trip.
  const accepted = out.slice(0, inserts.length).reduce((n, rs) => n + rs.rowsAffected, 0);
  return {
    accepted,
    duplicates: keep.length - accepted,
    ignored: results.length - keep.length,
    refused,
    toEvaluate: [...latest.values()]
      .filter((r) => !settled.has(r.monitorId))
      .map((r) => ({ monitorId: r.monitorId, cronTimestamp: r.cronTimestamp })),
  };
}

/** Marks a probe seen without results (it polls even when it has nothing to send). */
export async function touchLocation(db: Db, locationId: number, nowMs = Date.now()): Promise<void> {
  await db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, locationId));
}
