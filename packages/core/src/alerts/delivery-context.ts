// The delivery read model: which events still need their notify jobs queued, and what one delivery sends.
import { monitorTarget } from "@vigil/api-contract";
import { type Db, monitor, notificationChannel, notificationDelivery, statusEvent } from "@vigil/db-schema";
import { and, eq, inArray, isNull, lte } from "drizzle-orm";

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
export async function deliveryContext(db: Db, eventId: number, channelId: number, round = 0) {
  const [sent, events, channels] = await db.batch([
    db
      .select({ id: notificationDelivery.id })
      .from(notificationDelivery)
      .where(
        and(
          eq(notificationDelivery.eventId, eventId),
          eq(notificationDelivery.channelId, channelId),
          eq(notificationDelivery.outcome, "sent"),
          eq(notificationDelivery.round, round),
        ),
      )
      .limit(1),
    eventWithMonitor(db, eventId),
    db.select().from(notificationChannel).where(eq(notificationChannel.id, channelId)),
  ]);
  return { delivered: sent.length > 0, info: events[0] ? toNotification(events[0]) : null, channel: channels[0] ?? null };
}
