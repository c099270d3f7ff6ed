import { monitorTarget } from "@vigil/api-contract";
import {
  checkResult,
  type Db,
  incident,
  maintenance,
  maintenanceMonitor,
  monitor,
  monitorLocationStatus,
  notificationChannel,
  notificationDelivery,
  privateLocation,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";

export type MonitorStatus = "active" | "degraded" | "error";
export type CheckStatus = "success" | "degraded" | "error";
export type EventStatus = "degraded" | "error" | "recovered";

/**
 * A monitor's health from the latest result of each location serving it: error (or degraded)
 * when at least half of them agree; one location decides alone.
 */
export function aggregate(latest: readonly CheckStatus[]): MonitorStatus | null {
  const n = latest.length;
  if (n === 0) return null;
  const errors = latest.filter((s) => s === "error").length;
  const degraded = latest.filter((s) => s === "degraded").length;
  if (errors * 2 >= n) return "error";
  if ((errors + degraded) * 2 >= n) return "degraded";
  return "active";
}

/** The event a move from `current` to `next` announces, if any. */
export function transition(current: MonitorStatus, next: MonitorStatus): EventStatus | null {
  if (next === current) return null;
  if (next === "active") return "recovered";
  return next;
}

export interface EvaluatedEvent {
  id: number;
  workspaceId: number;
  monitorId: number;
  status: EventStatus;
  cronTimestamp: number;
  suppressed: boolean;
}

export interface Evaluation {
  monitorId: number;
  status: MonitorStatus | null;
  event: EvaluatedEvent | null;
  /** The decision's slot; null when there was nothing to decide on. */
  cronTimestamp: number | null;
  /** Pending results now marked evaluated. */
  evaluated: number;
}

/**
 * Re-computes a monitor's status from its locations' latest results and records the change.
 * Reads first, outside any lock; then one short write batch that applies only if the monitor is
 * still in the state that was read (compare-and-set), else the evaluation starts over. A replay of
 * the same slot finds the event already there (unique on monitor, slot, status).
 */
export async function evaluateMonitor(db: Db, monitorId: number, nowMs = Date.now()): Promise<Evaluation> {
  for (let attempt = 0; ; attempt++) {
    const out = await evaluateOnce(db, monitorId, nowMs);
    if (out !== "conflict") return out;
    if (attempt >= 20) throw new Error(`monitor ${monitorId}: evaluation kept conflicting`);
  }
}

async function evaluateOnce(db: Db, monitorId: number, nowMs: number): Promise<Evaluation | "conflict"> {
  const [monitors, rows, maintenances, locations] = await db.batch([
    db.select().from(monitor).where(eq(monitor.id, monitorId)),
    db
      .select({
        locationId: monitorLocationStatus.locationId,
        status: monitorLocationStatus.status,
        cron: monitorLocationStatus.cronTimestamp,
        region: privateLocation.region,
        online: privateLocation.online,
        statusCode: monitorLocationStatus.statusCode,
        latencyMs: monitorLocationStatus.latencyMs,
        errorMessage: monitorLocationStatus.errorMessage,
      })
      .from(monitorLocationStatus)
      .innerJoin(privateLocation, eq(privateLocation.id, monitorLocationStatus.locationId))
      .where(and(eq(monitorLocationStatus.monitorId, monitorId), isNull(privateLocation.deletedAt))),
    db
      .select({ startsAt: maintenance.startsAt, endsAt: maintenance.endsAt })
      .from(maintenance)
      .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
      .where(and(eq(maintenanceMonitor.monitorId, monitorId), gte(maintenance.endsAt, nowMs - 86_400_000))),
    db
      .select({ id: privateLocation.id, region: privateLocation.region, online: privateLocation.online })
      .from(privateLocation)
      .innerJoin(monitor, eq(monitor.workspaceId, privateLocation.workspaceId))
      .where(and(eq(monitor.id, monitorId), isNull(privateLocation.deletedAt))),
  ]);
  const m = monitors[0];
  const markEvaluated = (upTo: number | null) =>
    db
      .update(checkResult)
      .set({ evaluatedAt: nowMs })
      .where(
        and(
          eq(checkResult.monitorId, monitorId),
          isNull(checkResult.evaluatedAt),
          upTo === null ? undefined : lte(checkResult.cronTimestamp, upTo),
        ),
      );
  const onlyMark = async (status: MonitorStatus | null, cron: number | null) => {
    const [res] = await writeBatch(db, [markEvaluated(cron)]);
    return { monitorId, status, event: null, cronTimestamp: cron, evaluated: res!.rowsAffected };
  };
  if (!m || m.deletedAt !== null) return onlyMark(null, null);

  // Only live locations vote: an offline probe's last result (green or red) says nothing about now.
  // One that is live but has not reported yet counts as healthy, so the first location to report
  // cannot decide alone for four. A location that reports again is live again (ingest marks it).
  const serving = rows.filter((r) => r.online && m.regions.includes(r.region));
  // No live location has a result: no data, no decision either way; pending results are settled.
  if (serving.length === 0) return onlyMark(m.status, null);
  const reported = new Set(rows.map((r) => r.locationId));
  const silent = locations.filter((l) => m.regions.includes(l.region) && l.online && !reported.has(l.id)).length;
  const next = aggregate([...serving.map((r) => r.status), ...Array<CheckStatus>(silent).fill("success")])!;
  const cron = Math.max(...serving.map((r) => r.cron));
  // A late or out-of-order result never moves the status backwards.
  if (m.statusCronTimestamp !== null && cron < m.statusCronTimestamp) return onlyMark(m.status, cron);

  const change = transition(m.status, next);
  const claim = db
    .update(monitor)
    .set({ status: next, statusCronTimestamp: cron })
    .where(
      and(
        eq(monitor.id, monitorId),
        eq(monitor.status, m.status),
        m.statusCronTimestamp === null ? isNull(monitor.statusCronTimestamp) : eq(monitor.statusCronTimestamp, m.statusCronTimestamp),
      ),
    )
    .returning({ id: monitor.id });
  if (!change) {
    const [claimed, marked] = await writeBatch(db, [claim, markEvaluated(cron)]);
    if (claimed!.rows.length === 0) return "conflict";
    return { monitorId, status: next, event: null, cronTimestamp: cron, evaluated: marked!.rowsAffected };
  }

  // The payload's details come from the newest result that shows the new state.
  const witness =
    [...serving]
      .sort((a, b) => b.cron - a.cron)
      .find((r) => (change === "recovered" ? r.status !== "error" : change === "error" ? r.status === "error" : r.status !== "success")) ??
    serving[0]!;
  const suppressed = maintenances.some((w) => w.startsAt <= cron && cron <= w.endsAt);
  // Every write below runs only if the claim left the monitor in the new state.
  const claimed = sql`exists (select 1 from ${monitor} where ${monitor.id} = ${monitorId} and ${monitor.status} = ${next} and ${monitor.statusCronTimestamp} = ${cron})`;
  const openIncident = sql`(select ${incident.id} from ${incident} where ${incident.monitorId} = ${monitorId} and ${incident.resolvedAt} is null)`;
  const incidentWrite =
    change === "error"
      ? db.insert(incident).select(
          db
            .select({
              id: sql`null`.as("id"),
              workspaceId: sql`${m.workspaceId}`.as("workspace_id"),
              monitorId: sql`${monitorId}`.as("monitor_id"),
              startedAt: sql`${cron}`.as("started_at"),
              acknowledgedAt: sql`null`.as("acknowledged_at"),
              acknowledgedBy: sql`null`.as("acknowledged_by"),
              resolvedAt: sql`null`.as("resolved_at"),
              cause: sql`${witness.errorMessage}`.as("cause"),
            })
            .from(sql`(select 1)`)
            .where(sql`${claimed} and not exists ${openIncident}`),
        )
      : change === "recovered"
        ? db
            .update(incident)
            .set({ resolvedAt: cron })
            .where(and(eq(incident.monitorId, monitorId), isNull(incident.resolvedAt), claimed))
        : null;
  const latestIncident = sql`(select max(${incident.id}) from ${incident} where ${incident.monitorId} = ${monitorId} and (${incident.resolvedAt} is null or ${incident.resolvedAt} = ${cron}))`;
  const eventInsert = db
    .insert(statusEvent)
    .select(
      db
        .select({
          id: sql`null`.as("id"),
          workspaceId: sql`${m.workspaceId}`.as("workspace_id"),
          monitorId: sql`${monitorId}`.as("monitor_id"),
          status: sql`${change}`.as("status"),
          previousStatus: sql`${m.status}`.as("previous_status"),
          cronTimestamp: sql`${cron}`.as("cron_timestamp"),
          statusCode: sql`${witness.statusCode}`.as("status_code"),
          latencyMs: sql`${witness.latencyMs}`.as("latency_ms"),
          errorMessage: sql`${witness.errorMessage}`.as("error_message"),
          incidentId: (change === "degraded" ? sql`null` : latestIncident).as("incident_id"),
          suppressed: sql`${suppressed ? 1 : 0}`.as("suppressed"),
          dispatchedAt: sql`null`.as("dispatched_at"),
          createdAt: sql`${nowMs}`.as("created_at"),
        })
        .from(sql`(select 1)`)
        .where(claimed),
    )
    .onConflictDoNothing()
    .returning({ id: statusEvent.id });
  const writes = [claim, ...(incidentWrite ? [incidentWrite] : []), eventInsert, markEvaluated(cron)];
  const results = await writeBatch(db, writes);
  if (results[0]!.rows.length === 0) return "conflict";
  const inserted = results[writes.length - 2]!.rows[0];
  const event = inserted
    ? { id: Number(inserted.id), workspaceId: m.workspaceId, monitorId, status: change, cronTimestamp: cron, suppressed }
    : null;
  return { monitorId, status: next, event, cronTimestamp: cron, evaluated: results[writes.length - 1]!.rowsAffected };
}

/** Monitors with results still pending evaluation older than `olderThanMs` (left while Redis was away). */
export async function pendingEvaluations(db: Db, olderThanMs: number, nowMs = Date.now(), limit = 1000) {
  return db
    .select({ monitorId: checkResult.monitorId, cronTimestamp: sql<number>`max(${checkResult.cronTimestamp})` })
    .from(checkResult)
    .where(and(isNull(checkResult.evaluatedAt), lte(checkResult.createdAt, nowMs - olderThanMs)))
    .groupBy(checkResult.monitorId)
    .limit(limit);
}

/** Events whose notify jobs may not have been queued (a crash between commit and enqueue). */
export async function undispatchedEvents(db: Db, olderThanMs: number, nowMs = Date.now(), limit = 1000) {
  return db
    .select({
      id: statusEvent.id,
      workspaceId: statusEvent.workspaceId,
      monitorId: statusEvent.monitorId,
      suppressed: statusEvent.suppressed,
    })
    .from(statusEvent)
    .where(and(isNull(statusEvent.dispatchedAt), lte(statusEvent.createdAt, nowMs - olderThanMs)))
    .limit(limit);
}

export async function markDispatched(db: Db, eventIds: number[], nowMs = Date.now()): Promise<void> {
  if (eventIds.length > 0) await db.update(statusEvent).set({ dispatchedAt: nowMs }).where(inArray(statusEvent.id, eventIds));
}

/** What a notification says about an event: the spec's payload fields. */
type EventRow = { event: typeof statusEvent.$inferSelect; monitor: typeof monitor.$inferSelect };

/** What a notification says about an event: the spec's payload fields. */
function toNotification({ event: e, monitor: m }: EventRow) {
  return {
    workspaceId: e.workspaceId,
    suppressed: e.suppressed,
    event: {
      type: e.status,
      monitor: { id: m.id, name: m.name, url: monitorTarget(m) },
      cronTimestamp: e.cronTimestamp,
      ...(e.statusCode !== null ? { statusCode: e.statusCode } : {}),
      ...(e.latencyMs !== null ? { latency: e.latencyMs } : {}),
      ...(e.errorMessage !== null ? { errorMessage: e.errorMessage } : {}),
    },
  };
}

const eventWithMonitor = (db: Db, eventId: number) =>
  db
    .select({ event: statusEvent, monitor })
    .from(statusEvent)
    .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
    .where(eq(statusEvent.id, eventId));

/** Everything one delivery needs, in one round trip: already sent?, the event, the channel. */
export async function deliveryContext(db: Db, eventId: number, channelId: number) {
  const [sent, events, channels] = await db.batch([
    db
      .select({ id: notificationDelivery.id })
      .from(notificationDelivery)
      .where(
        and(
          eq(notificationDelivery.eventId, eventId),
          eq(notificationDelivery.channelId, channelId),
          eq(notificationDelivery.outcome, "sent"),
        ),
      )
      .limit(1),
    eventWithMonitor(db, eventId),
    db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId)),
  ]);
  return { delivered: sent.length > 0, info: events[0] ? toNotification(events[0]) : null, channel: channels[0] ?? null };
}
