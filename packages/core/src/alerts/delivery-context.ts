// The delivery read model: which events still need their notify jobs queued, and what one delivery sends.
import { monitorTarget } from "@vigil/api-contract";
import {
  allFulfilled,
  coalesced,
  type Db,
  monitor,
  notificationChannel,
  notificationDelivery,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, inArray, isNull, lte } from "drizzle-orm";

/** Events (of `monitorIds`, or of any monitor) whose notify jobs may not have been queued (a crash between commit and enqueue). */
export async function undispatchedEvents(db: Db, olderThanMs: number, nowMs = Date.now(), limit = 1000, monitorIds?: number[]) {
  return db
    .select({
      id: statusEvent.id,
      workspaceId: statusEvent.workspaceId,
      monitorId: statusEvent.monitorId,
      suppressed: statusEvent.suppressed,
    })
    .from(statusEvent)
    .where(
      and(
        isNull(statusEvent.dispatchedAt),
        lte(statusEvent.createdAt, nowMs - olderThanMs),
        monitorIds ? inArray(statusEvent.monitorId, monitorIds) : undefined,
      ),
    )
    .orderBy(statusEvent.id)
    .limit(limit);
}

export async function markDispatched(db: Db, eventIds: number[], nowMs = Date.now()): Promise<void> {
  // Through the process's write queue: a burst of dispatches must not race each other for SQLite's lock.
  if (eventIds.length > 0)
    await writeBatch(db, [db.update(statusEvent).set({ dispatchedAt: nowMs }).where(inArray(statusEvent.id, eventIds))]);
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

type DeliveryKey = { eventId: number; channelId: number; round: number };

const deliveryContexts = coalesced(async (db: Db, keys: DeliveryKey[]) => {
  const eventIds = [...new Set(keys.map((k) => k.eventId))];
  const [sent, events, channels] = await db.batch([
    db
      .select({ eventId: notificationDelivery.eventId, channelId: notificationDelivery.channelId, round: notificationDelivery.round })
      .from(notificationDelivery)
      .where(and(inArray(notificationDelivery.eventId, eventIds), eq(notificationDelivery.outcome, "sent"))),
    db
      .select({ event: statusEvent, monitor })
      .from(statusEvent)
      .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
      .where(inArray(statusEvent.id, eventIds)),
    db
      .select()
      .from(notificationChannel)
      .where(inArray(notificationChannel.id, [...new Set(keys.map((k) => k.channelId))])),
  ]);
  const delivered = new Set(sent.map((d) => `${d.eventId}:${d.channelId}:${d.round}`));
  const infos = new Map(events.map((e) => [e.event.id, toNotification(e)]));
  const byId = new Map(channels.map((c) => [c.id, c]));
  return allFulfilled(
    keys.map((k) => ({
      delivered: delivered.has(`${k.eventId}:${k.channelId}:${k.round}`),
      info: infos.get(k.eventId) ?? null,
      channel: byId.get(k.channelId) ?? null,
    })),
  );
});

/**
 * Everything one delivery needs: already sent?, the event, the channel. The deliveries that start together
 * share one read.
 */
export async function deliveryContext(db: Db, eventId: number, channelId: number, round = 0) {
  return deliveryContexts(db, { eventId, channelId, round });
}
