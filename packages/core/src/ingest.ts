import { IngestBatch } from "@vigil/api-contract";
import { checkResultRow, type Db, monitor, monitorLocationStatus, privateLocation, writeBatch } from "@vigil/db-schema";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { parseInput } from "./errors";

export interface IngestLocation {
  id: number;
  workspaceId: number;
  region: string;
}

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  ignored: number;
  /** Newest accepted slot per monitor: what evaluation should look at. */
  toEvaluate: { monitorId: number; cronTimestamp: number }[];
}

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

/**
 * Stores a probe's batch idempotently: a result whose (monitor, location, slot) is already stored is a
 * duplicate. Accepted results stay pending until an evaluation has read past them.
 */
export async function recordResults(db: Db, location: IngestLocation, body: unknown, nowMs = Date.now()): Promise<IngestOutcome> {
  const { results } = parseInput(IngestBatch, body, "results");
  const monitorIds = [...new Set(results.map((r) => r.monitorId))];
  const ownedIds = await liveMonitorIds(db, location.workspaceId, monitorIds);
  const keep = results.filter((r) => ownedIds.has(r.monitorId));
  if (keep.length === 0) {
    await touchLocation(db, location.id, nowMs);
    return { accepted: 0, duplicates: 0, ignored: results.length, toEvaluate: [] };
  }
  // The latest slot per monitor in this batch; the upsert's WHERE keeps an older, late result from
  // overwriting a newer one already stored. Re-sent rows rewrite identical values.
  const latest = new Map<number, (typeof keep)[number]>();
  for (const r of keep) {
    const prev = latest.get(r.monitorId);
    if (!prev || r.cronTimestamp > prev.cronTimestamp) latest.set(r.monitorId, r);
  }
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
    updatedAt: nowMs,
  }));
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
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`excluded.cron_timestamp >= ${monitorLocationStatus.cronTimestamp}`,
    });
  const seen = db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, location.id));
  // One atomic round trip: results, per-location status and last-seen land together or not at all.
  const out = await writeBatch(db, [...inserts, upsert, seen]);
  // Counted, not read back: a duplicate inserts nothing. Every monitor in the batch is (re)evaluated,
  // which is idempotent, so a re-sent batch costs one evaluation and no per-row round trip.
  const accepted = out.slice(0, inserts.length).reduce((n, rs) => n + rs.rowsAffected, 0);
  return {
    accepted,
    duplicates: keep.length - accepted,
    ignored: results.length - keep.length,
    toEvaluate: [...latest.values()].map((r) => ({ monitorId: r.monitorId, cronTimestamp: r.cronTimestamp })),
  };
}

/** Marks a probe seen without results (it polls even when it has nothing to send). */
export async function touchLocation(db: Db, locationId: number, nowMs = Date.now()): Promise<void> {
  await db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, locationId));
}
