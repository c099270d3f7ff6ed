import { monitorTarget } from "@vigil/api-contract";
import {
  checkResult,
  type Db,
  incident,
  maintenance,
  maintenanceMonitor,
  monitor,
  monitorLocationStatus,
  privateLocation,
  statusEvent,
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
 * One write transaction: concurrent evaluations of the same monitor serialize, and a replay of
 * the same slot finds the event already there (unique on monitor, slot, status).
 */
export async function evaluateMonitor(db: Db, monitorId: number, nowMs = Date.now()): Promise<Evaluation> {
  return db.transaction(
    async (tx) => {
      const [m] = await tx.select().from(monitor).where(eq(monitor.id, monitorId));
      const markEvaluated = async (upTo: number | null) => {
        const where =
          upTo === null
            ? and(eq(checkResult.monitorId, monitorId), isNull(checkResult.evaluatedAt))
            : and(eq(checkResult.monitorId, monitorId), isNull(checkResult.evaluatedAt), lte(checkResult.cronTimestamp, upTo));
        const res = await tx.update(checkResult).set({ evaluatedAt: nowMs }).where(where);
        return res.rowsAffected;
      };
      if (!m || m.deletedAt !== null)
        return { monitorId, status: null, event: null, cronTimestamp: null, evaluated: await markEvaluated(null) };

      const rows = await tx
        .select({
          status: monitorLocationStatus.status,
          cron: monitorLocationStatus.cronTimestamp,
          region: privateLocation.region,
          statusCode: monitorLocationStatus.statusCode,
          latencyMs: monitorLocationStatus.latencyMs,
          errorMessage: monitorLocationStatus.errorMessage,
        })
        .from(monitorLocationStatus)
        .innerJoin(privateLocation, eq(privateLocation.id, monitorLocationStatus.locationId))
        .where(and(eq(monitorLocationStatus.monitorId, monitorId), isNull(privateLocation.deletedAt)));
      const serving = rows.filter((r) => m.regions.includes(r.region));
      const next = aggregate(serving.map((r) => r.status));
      if (next === null) return { monitorId, status: m.status, event: null, cronTimestamp: null, evaluated: await markEvaluated(null) };
      const cron = Math.max(...serving.map((r) => r.cron));
      // A late or out-of-order result never moves the status backwards.
      if (m.statusCronTimestamp !== null && cron < m.statusCronTimestamp) {
        return { monitorId, status: m.status, event: null, cronTimestamp: cron, evaluated: await markEvaluated(cron) };
      }
      const change = transition(m.status, next);
      let event: EvaluatedEvent | null = null;
      if (change) {
        // The payload's details come from the newest result that shows the new state.
        const witness =
          [...serving]
            .sort((a, b) => b.cron - a.cron)
            .find((r) =>
              change === "recovered" ? r.status !== "error" : change === "error" ? r.status === "error" : r.status !== "success",
            ) ?? serving[0]!;
        const suppressed = await inMaintenance(tx, m.workspaceId, monitorId, cron);
        let incidentId: number | null = null;
        const [open] = await tx
          .select({ id: incident.id })
          .from(incident)
          .where(and(eq(incident.monitorId, monitorId), isNull(incident.resolvedAt)));
        if (change === "error") {
          incidentId =
            open?.id ??
            (
              await tx
                .insert(incident)
                .values({ workspaceId: m.workspaceId, monitorId, startedAt: cron, cause: witness.errorMessage })
                .returning({ id: incident.id })
            )[0]!.id;
        } else if (change === "recovered" && open) {
          await tx.update(incident).set({ resolvedAt: cron }).where(eq(incident.id, open.id));
          incidentId = open.id;
        }
        const inserted = await tx
          .insert(statusEvent)
          .values({
            workspaceId: m.workspaceId,
            monitorId,
            status: change,
            previousStatus: m.status,
            cronTimestamp: cron,
            statusCode: witness.statusCode,
            latencyMs: witness.latencyMs,
            errorMessage: change === "recovered" ? null : witness.errorMessage,
            incidentId,
            suppressed,
          })
          .onConflictDoNothing()
          .returning({ id: statusEvent.id });
        if (inserted[0])
          event = { id: inserted[0].id, workspaceId: m.workspaceId, monitorId, status: change, cronTimestamp: cron, suppressed };
      }
      await tx.update(monitor).set({ status: next, statusCronTimestamp: cron }).where(eq(monitor.id, monitorId));
      return { monitorId, status: next, event, cronTimestamp: cron, evaluated: await markEvaluated(cron) };
    },
    { behavior: "immediate" },
  );
}

type Conn = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

async function inMaintenance(tx: Conn, workspaceId: number, monitorId: number, at: number): Promise<boolean> {
  const [hit] = await tx
    .select({ id: maintenance.id })
    .from(maintenance)
    .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
    .where(
      and(
        eq(maintenance.workspaceId, workspaceId),
        eq(maintenanceMonitor.monitorId, monitorId),
        lte(maintenance.startsAt, at),
        gte(maintenance.endsAt, at),
      ),
    )
    .limit(1);
  return hit !== undefined;
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
export async function notificationFor(db: Db, eventId: number) {
  const [row] = await db
    .select({ event: statusEvent, monitor })
    .from(statusEvent)
    .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
    .where(eq(statusEvent.id, eventId));
  if (!row) return null;
  const { event: e, monitor: m } = row;
  return {
    workspaceId: e.workspaceId,
    suppressed: e.suppressed,
    event: {
      type: e.status,
      monitor: { id: m.id, name: m.name, url: monitorTarget(m) },
      cronTimestamp: e.cronTimestamp,
      ...(e.statusCode !== null ? { statusCode: e.statusCode } : {}),
      ...(e.latencyMs !== null ? { latency: e.latencyMs } : {}),
      ...(e.errorMessage !== null && e.status !== "recovered" ? { errorMessage: e.errorMessage } : {}),
    },
  };
}
