import {
  type Db,
  type DELIVERY_OUTCOMES,
  monitor,
  monitorChannel,
  notificationChannel,
  notificationDelivery,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, desc, eq, isNull, max } from "drizzle-orm";
import { NotFoundError } from "../errors";

/** Enabled channels linked to the event's monitor: one notification each. */
export async function channelsForEvent(db: Db, eventId: number): Promise<number[]> {
  const rows = await db
    .select({ id: notificationChannel.id })
    .from(statusEvent)
    .innerJoin(monitorChannel, eq(monitorChannel.monitorId, statusEvent.monitorId))
    .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
    .where(and(eq(statusEvent.id, eventId), eq(notificationChannel.enabled, true)))
    .orderBy(notificationChannel.id);
  return rows.map((r) => r.id);
}

export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

interface Delivery {
  eventId: number;
  channelId: number;
  attempt: number;
  outcome: DeliveryOutcome;
  responseCode?: number;
  error?: string;
  /** For "retrying": when the queue tries again. */
  nextRetryAt?: number;
  /** 0: the event itself; a reminder or escalation step's timer id. */
  round?: number;
}

const deliveryRow = (d: Delivery, nowMs: number) => ({
  eventId: d.eventId,
  channelId: d.channelId,
  attempt: d.attempt,
  outcome: d.outcome,
  responseCode: d.responseCode ?? null,
  error: d.error?.slice(0, 1000) ?? null,
  nextRetryAt: d.outcome === "retrying" ? (d.nextRetryAt ?? null) : null,
  round: d.round ?? 0,
  createdAt: nowMs,
});

export async function recordDelivery(db: Db, d: Delivery, nowMs = Date.now()): Promise<void> {
  const insert = db.insert(notificationDelivery).values(deliveryRow(d, nowMs));
  // A success clears the channel's failing mark; a final failure sets it (once).
  if (d.outcome === "sent") {
    await writeBatch(db, [
      insert,
      db.update(notificationChannel).set({ failingSince: null }).where(eq(notificationChannel.id, d.channelId)),
    ]);
  } else if (d.outcome === "failed") {
    await writeBatch(db, [
      insert,
      db
        .update(notificationChannel)
        .set({ failingSince: nowMs })
        .where(and(eq(notificationChannel.id, d.channelId), isNull(notificationChannel.failingSince))),
    ]);
  } else await insert;
}

/**
 * Logs a suppressed event as such on each of its channels and marks it dispatched, in one write: a
 * database failure leaves neither, so the sweep's second try never logs it twice.
 */
export async function recordSuppressed(
  db: Db,
  eventId: number,
  channelIds: number[],
  nowMs = Date.now(),
  reason = "maintenance window",
): Promise<void> {
  const rows = channelIds.map((channelId) => deliveryRow({ eventId, channelId, attempt: 0, outcome: "suppressed", error: reason }, nowMs));
  await writeBatch(db, [
    ...(rows.length > 0 ? [db.insert(notificationDelivery).values(rows)] : []),
    db.update(statusEvent).set({ dispatchedAt: nowMs }).where(eq(statusEvent.id, eventId)),
  ]);
}

async function assertOwned(db: Db, workspaceId: number, channelId: number) {
  const [owned] = await db
    .select({ id: notificationChannel.id })
    .from(notificationChannel)
    .where(and(eq(notificationChannel.id, channelId), eq(notificationChannel.workspaceId, workspaceId)));
  if (!owned) throw new NotFoundError("notification channel", channelId);
}

/** A channel's delivery log, newest first (optionally one event's attempts); another workspace's channel is not found. */
export async function listDeliveries(db: Db, workspaceId: number, channelId: number, limit = 100, eventId?: number) {
  await assertOwned(db, workspaceId, channelId);
  return db
    .select({
      id: notificationDelivery.id,
      eventId: notificationDelivery.eventId,
      status: statusEvent.status,
      monitorId: statusEvent.monitorId,
      monitorName: monitor.name,
      cronTimestamp: statusEvent.cronTimestamp,
      attempt: notificationDelivery.attempt,
      outcome: notificationDelivery.outcome,
      responseCode: notificationDelivery.responseCode,
      error: notificationDelivery.error,
      nextRetryAt: notificationDelivery.nextRetryAt,
      createdAt: notificationDelivery.createdAt,
    })
    .from(notificationDelivery)
    .innerJoin(statusEvent, eq(statusEvent.id, notificationDelivery.eventId))
    .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
    .where(
      eventId === undefined
        ? eq(notificationDelivery.channelId, channelId)
        : and(eq(notificationDelivery.channelId, channelId), eq(notificationDelivery.eventId, eventId)),
    )
    .orderBy(desc(notificationDelivery.id))
    .limit(limit);
}

export interface LastDelivery {
  outcome: DeliveryOutcome;
  responseCode: number | null;
  createdAt: number;
}

/** The newest delivery attempt of each of the workspace's channels, for the channel list. */
export async function lastDeliveries(db: Db, workspaceId: number): Promise<Map<number, LastDelivery>> {
  const newest = db
    .select({ id: max(notificationDelivery.id).as("newest_id") })
    .from(notificationDelivery)
    .innerJoin(notificationChannel, eq(notificationChannel.id, notificationDelivery.channelId))
    .where(eq(notificationChannel.workspaceId, workspaceId))
    .groupBy(notificationDelivery.channelId)
    .as("newest");
  const rows = await db
    .select({
      channelId: notificationDelivery.channelId,
      outcome: notificationDelivery.outcome,
      responseCode: notificationDelivery.responseCode,
      createdAt: notificationDelivery.createdAt,
    })
    .from(notificationDelivery)
    .innerJoin(newest, eq(newest.id, notificationDelivery.id));
  return new Map(rows.map(({ channelId, ...d }) => [channelId, d]));
}
