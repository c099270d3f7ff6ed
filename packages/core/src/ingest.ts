import { IngestBatch } from "@vigil/api-contract";
import { checkResult, type Db, monitor, monitorLocationStatus, privateLocation } from "@vigil/db-schema";
import { and, eq, inArray, sql } from "drizzle-orm";
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

const CHUNK = 100;

/**
 * Stores a probe's batch idempotently: a result whose id or (monitor, location, slot) is already
 * stored is a duplicate. Accepted results stay pending until evaluation marks them.
 */
export async function recordResults(db: Db, location: IngestLocation, body: unknown, nowMs = Date.now()): Promise<IngestOutcome> {
  const { results } = parseInput(IngestBatch, body, "results");
  const monitorIds = [...new Set(results.map((r) => r.monitorId))];
  return db.transaction(
    async (tx) => {
      const owned = await tx
        .select({ id: monitor.id })
        .from(monitor)
        .where(and(inArray(monitor.id, monitorIds), eq(monitor.workspaceId, location.workspaceId), sql`${monitor.deletedAt} is null`));
      const ownedIds = new Set(owned.map((m) => m.id));
      const keep = results.filter((r) => ownedIds.has(r.monitorId));
      const accepted = new Set<string>();
      for (let i = 0; i < keep.length; i += CHUNK) {
        const rows = keep.slice(i, i + CHUNK).map((r) => ({
          id: r.id,
          workspaceId: location.workspaceId,
          monitorId: r.monitorId,
          locationId: location.id,
          region: location.region,
          cronTimestamp: r.cronTimestamp,
          startedAt: r.startedAt,
          status: r.status,
          latencyMs: Math.round(r.latencyMs),
          statusCode: r.statusCode ?? null,
          errorMessage: r.errorMessage ?? null,
          attempts: r.attempts,
          timings: r.timings ?? null,
          assertions: r.assertions ?? null,
        }));
        const inserted = await tx.insert(checkResult).values(rows).onConflictDoNothing().returning({ id: checkResult.id });
        for (const row of inserted) accepted.add(row.id);
      }
      // The latest slot per monitor for this location; an older, late result never overwrites a newer one.
      const latest = new Map<number, (typeof keep)[number]>();
      for (const r of keep) {
        if (!accepted.has(r.id)) continue;
        const prev = latest.get(r.monitorId);
        if (!prev || r.cronTimestamp > prev.cronTimestamp) latest.set(r.monitorId, r);
      }
      for (const r of latest.values()) {
        await tx
          .insert(monitorLocationStatus)
          .values({
            monitorId: r.monitorId,
            locationId: location.id,
            status: r.status,
            cronTimestamp: r.cronTimestamp,
            resultId: r.id,
            latencyMs: Math.round(r.latencyMs),
            statusCode: r.statusCode ?? null,
            errorMessage: r.errorMessage ?? null,
            updatedAt: nowMs,
          })
          .onConflictDoUpdate({
            target: [monitorLocationStatus.monitorId, monitorLocationStatus.locationId],
            set: {
              status: sql`excluded.status`,
              cronTimestamp: sql`excluded.cron_timestamp`,
              resultId: sql`excluded.result_id`,
              latencyMs: sql`excluded.latency_ms`,
              statusCode: sql`excluded.status_code`,
              errorMessage: sql`excluded.error_message`,
              updatedAt: sql`excluded.updated_at`,
            },
            setWhere: sql`excluded.cron_timestamp >= ${monitorLocationStatus.cronTimestamp}`,
          });
      }
      await tx.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, location.id));
      return {
        accepted: accepted.size,
        duplicates: keep.length - accepted.size,
        ignored: results.length - keep.length,
        toEvaluate: [...latest.values()].map((r) => ({ monitorId: r.monitorId, cronTimestamp: r.cronTimestamp })),
      };
    },
    { behavior: "immediate" },
  );
}

/** Marks a probe seen without results (it polls even when it has nothing to send). */
export async function touchLocation(db: Db, locationId: number, nowMs = Date.now()): Promise<void> {
  await db.update(privateLocation).set({ lastSeenAt: nowMs, online: true }).where(eq(privateLocation.id, locationId));
}
