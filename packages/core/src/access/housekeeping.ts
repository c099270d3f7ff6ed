import { type Frequency, frequencyMs } from "@vigil/api-contract";
import { type Db, monitor, monitorLocationStatus, notificationChannel, privateLocation, writeBatch } from "@vigil/db-schema";
import { retentionCutoff } from "@vigil/limits";
import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { auditInsert } from "../audit";
import { intervalSql } from "../monitors/ingest";
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

/**
 * Counts the slots of offline locations whose window is over, so a silence shows in the count before (and
 * even if never) results resume. Each monitor-location's count advances `missed_through`, which the ingest
 * then counts its gap from: no slot is counted twice. A monitor edited during the silence is left out (it
 * may have been paused or moved off the location). Returns the slots counted.
 */
export async function countSilentSlots(db: Db, nowMs = Date.now()): Promise<number> {
  const s = monitorLocationStatus;
  // k: the slots after the last counted one (w) whose window (one interval) is over.
  const gaps = sql`select ${s.monitorId} as monitor_id, ${s.locationId} as location_id, g.w, g.i, cast((${nowMs} - g.w) / g.i as integer) - 1 as k
    from ${s} join (select s2.monitor_id, s2.location_id, max(s2.cron_timestamp, coalesce(s2.missed_through, 0)) as w,
        ${intervalSql("m.frequency")} as i
      from ${s} s2 join ${monitor} m on m.id = s2.monitor_id join ${privateLocation} p on p.id = s2.location_id
      where p.online = 0 and p.deleted_at is null and m.deleted_at is null and m.active = 1 and m.updated_at <= s2.updated_at
        and p.region in (select value from json_each(m.regions))) as g
      on g.monitor_id = ${s.monitorId} and g.location_id = ${s.locationId}
    where cast((${nowMs} - g.w) / g.i as integer) > 1`;
  const out = await writeBatch(db, [
    sql`select coalesce(sum(k), 0) from (${gaps})`,
    sql`update ${privateLocation} set slots_missed = slots_missed + (select sum(k) from (${gaps}) as c where c.location_id = ${privateLocation.id})
      where ${privateLocation.id} in (select location_id from (${gaps}))`,
    sql`update ${s} set missed_through = c.w + c.k * c.i from (${gaps}) as c
      where c.monitor_id = ${s.monitorId} and c.location_id = ${s.locationId}`,
  ]);
  return Number(out[0]!.rows[0]![0]);
}

export interface LocationNotice {
  state: "silent" | "back";
  location: { id: number; workspaceId: number; name: string; region: string };
  /** When its probes were last heard from (silent), or when the silence was told (back). */
  sinceMs: number;
}

/**
 * Claims the notices due: a location marked offline whose silence was not told yet, and one back online whose
 * silence was told. The claim is one conditional write per notice, so each silence is told once and its end
 * once, whatever restarts or concurrent sweeps happen.
 */
export async function claimLocationNotices(db: Db, nowMs = Date.now()): Promise<LocationNotice[]> {
  const p = privateLocation;
  const due = await db
    .select()
    .from(p)
    .where(
      and(
        isNull(p.deletedAt),
        isNotNull(p.lastSeenAt),
        sql`((${p.online} = 0 and ${p.silenceNoticedAt} is null) or (${p.online} = 1 and ${p.silenceNoticedAt} is not null))`,
      ),
    );
  const claimed: LocationNotice[] = [];
  for (const loc of due) {
    const silent = !loc.online;
    const res = await db
      .update(p)
      .set({ silenceNoticedAt: silent ? nowMs : null })
      .where(
        and(
          eq(p.id, loc.id),
          eq(p.online, loc.online),
          silent ? isNull(p.silenceNoticedAt) : eq(p.silenceNoticedAt, loc.silenceNoticedAt!),
        ),
      )
      .returning({ id: p.id });
    if (res.length === 0) continue;
    const location = { id: loc.id, workspaceId: loc.workspaceId, name: loc.name, region: loc.region };
    claimed.push({ state: silent ? "silent" : "back", location, sinceMs: silent ? loc.lastSeenAt! : loc.silenceNoticedAt! });
  }
  return claimed;
}

/** The channels a workspace notice goes to: enabled ones, webhooks left out (their body is monitor status changes only). */
export async function noticeChannels(db: Db, workspaceId: number) {
  return db
    .select()
    .from(notificationChannel)
    .where(
      and(eq(notificationChannel.workspaceId, workspaceId), eq(notificationChannel.enabled, true), ne(notificationChannel.kind, "webhook")),
    );
}

/** Deletes each workspace's results older than its `data-retention`. */
export async function applyRetention(db: Db, deleteBefore: (workspaceId: number, cutoff: number) => Promise<number>, nowMs = Date.now()) {
  let deleted = 0;
  for (const ws of await listWorkspaces(db)) {
    deleted += await deleteBefore(ws.id, retentionCutoff(limitsOf(ws, nowMs, () => {}).limits, nowMs));
  }
  return deleted;
}
