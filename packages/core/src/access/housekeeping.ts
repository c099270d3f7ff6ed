import { type Frequency, frequencyMs } from "@vigil/api-contract";
import { type Db, monitor, privateLocation } from "@vigil/db-schema";
import { retentionCutoff } from "@vigil/limits";
import { and, eq, isNull } from "drizzle-orm";
import { auditInsert } from "../audit";
import { limitsOf, listWorkspaces } from "./workspace";

/** With no monitor to set the pace, a location is expected at least this often (its long-poll is shorter). */
const IDLE_INTERVAL_MS = 60_000;

/**
 * Marks offline each location silent for three of its shortest intervals, and records it once.
 * Returns the ids marked.
 */
export async function markSilentLocations(db: Db, nowMs = Date.now()): Promise<number[]> {
  const locations = await db
    .select()
    .from(privateLocation)
    .where(and(eq(privateLocation.online, true), isNull(privateLocation.deletedAt)));
  const marked: number[] = [];
  for (const loc of locations) {
    const monitors = await db
      .select({ frequency: monitor.frequency, regions: monitor.regions })
      .from(monitor)
      .where(and(eq(monitor.workspaceId, loc.workspaceId), isNull(monitor.deletedAt), eq(monitor.active, true)));
    const intervals = monitors.filter((m) => m.regions.includes(loc.region)).map((m) => frequencyMs(m.frequency as Frequency));
    const shortest = intervals.length > 0 ? Math.min(...intervals) : IDLE_INTERVAL_MS;
    const silentFor = nowMs - (loc.lastSeenAt ?? loc.createdAt);
    if (silentFor < 3 * shortest) continue;
    const res = await db
      .update(privateLocation)
      .set({ online: false })
      .where(and(eq(privateLocation.id, loc.id), eq(privateLocation.online, true)))
      .returning({ id: privateLocation.id });
    if (res.length === 0) continue;
    await auditInsert(db, {
      workspaceId: loc.workspaceId,
      actor: "system",
      action: "private-location.offline",
      targetType: "private-location",
      targetId: loc.id,
      metadata: { lastSeenAt: loc.lastSeenAt, silentForMs: silentFor },
    });
    marked.push(loc.id);
  }
  return marked;
}

/** Deletes each workspace's results older than its `data-retention`. */
export async function applyRetention(db: Db, deleteBefore: (workspaceId: number, cutoff: number) => Promise<number>, nowMs = Date.now()) {
  let deleted = 0;
  for (const ws of await listWorkspaces(db)) {
    deleted += await deleteBefore(ws.id, retentionCutoff(limitsOf(ws, nowMs, () => {}).limits, nowMs));
  }
  return deleted;
}
