// The delivery read model: which events still need their notify jobs queued, and what one delivery sends.
import { monitorTarget } from "@vigil/api-contract";
import {
  allFulfilled,
  coalesced,
  type Db,
  inIds,
  monitor,
  notificationChannel,
  notificationDelivery,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { targetColumns } from "../monitors/queries";
import { type AttemptKey, attemptWrites } from "./delivery-attempts";

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
    await writeBatch(db, [db.update(statusEvent).set({ dispatchedAt: nowMs }).where(inIds(statusEvent.id, eventIds))]);
}

/** The columns a notification shows: the event's, and the monitor's name and target (what `monitorTarget` reads). */
const notificationColumns = {
  id: statusEvent.id,
  workspaceId: statusEvent.workspaceId,
  suppressed: statusEvent.suppressed,
  status: statusEvent.status,
  cronTimestamp: statusEvent.cronTimestamp,
  statusCode: statusEvent.statusCode,
  latencyMs: statusEvent.latencyMs,
  errorMessage: statusEvent.errorMessage,
  monitor: {
    id: monitor.id,
    name: monitor.name,
    ...targetColumns,
    connection: monitor.connection,
  },
};

type EventRow = {
  [K in Exclude<keyof typeof notificationColumns, "monitor">]: (typeof statusEvent.$inferSelect)[K];
} & { monitor: Pick<typeof monitor.$inferSelect, keyof typeof notificationColumns.monitor> };

/** What a notification says about an event: the spec's payload fields. */
function toNotification({ monitor: m, ...e }: EventRow) {
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

/** The reads of a delivery: the keys already sent, the events (with their monitors), the channels. */
function contextReads(db: Db, keys: readonly DeliveryKey[]) {
  const eventIds = [...new Set(keys.map((k) => k.eventId))];
  return [
    db
      .select({ eventId: notificationDelivery.eventId, channelId: notificationDelivery.channelId, round: notificationDelivery.round })
      .from(notificationDelivery)
      .where(and(inIds(notificationDelivery.eventId, eventIds), eq(notificationDelivery.outcome, "sent"))),
    db
      .select(notificationColumns)
      .from(statusEvent)
      .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
      .where(inIds(statusEvent.id, eventIds)),
    db
      .select()
      .from(notificationChannel)
      .where(inIds(notificationChannel.id, [...new Set(keys.map((k) => k.channelId))])),
  ] as const;
}

type Reads = ReturnType<typeof contextReads>;
type ReadRows = readonly [Awaited<Reads[0]>, Awaited<Reads[1]>, Awaited<Reads[2]>];

function contexts(keys: readonly DeliveryKey[], [sent, events, channels]: ReadRows) {
  const delivered = new Set(sent.map((d) => `${d.eventId}:${d.channelId}:${d.round}`));
  const infos = new Map(events.map((e) => [e.id, toNotification(e)]));
  const byId = new Map(channels.map((c) => [c.id, c]));
  return keys.map((k) => ({
    delivered: delivered.has(`${k.eventId}:${k.channelId}:${k.round}`),
    info: infos.get(k.eventId) ?? null,
    channel: byId.get(k.channelId) ?? null,
  }));
}

const deliveryContexts = coalesced(async (db: Db, keys: DeliveryKey[]) =>
  allFulfilled(contexts(keys, await db.batch(contextReads(db, keys)))),
);

/**
 * Everything one delivery needs: already sent?, the event, the channel. The deliveries that start together
 * share one read.
 */
export async function deliveryContext(db: Db, eventId: number, channelId: number, round = 0) {
  return deliveryContexts(db, { eventId, channelId, round });
}

/** What `contexts` sends to: not sent yet, the event and its monitor there, the channel there and enabled. */
const d = notificationDelivery;
const deliverable = sql`not exists (select 1 from ${d} s where s.event_id = v.column1 and s.channel_id = v.column2 and s.round = v.column3 and s.outcome = 'sent')
  and exists (select 1 from ${statusEvent} e join ${monitor} m on m.id = e.monitor_id where e.id = v.column1)
  and exists (select 1 from ${notificationChannel} c where c.id = v.column2 and c.enabled)`;

const openDeliveries = coalesced(async (db: Db, keys: AttemptKey[]) => {
  const reads = contextReads(db, keys).map((q) => q.prepare());
  const { writes, started } = attemptWrites(keys, deliverable);
  const results = await writeBatch(db, [...reads.map((p) => ({ toSQL: () => p.getQuery() })), ...writes]);
  const rows = reads.map((p, i) => p.mapAllResult(results[i], true)) as unknown as ReadRows;
  const opened = started(results.slice(reads.length));
  return allFulfilled(contexts(keys, rows).map((c, i) => ({ ...c, attempt: opened.get(keys[i]!) })));
});

/**
 * `deliveryContext` and, when it says to send, the attempt opened (as `startAttempt` does) in the same write:
 * one round trip, and the checks and the attempt agree. `attempt` is undefined when there is nothing to send.
 */
export async function openDelivery(db: Db, eventId: number, channelId: number, round = 0, nowMs = Date.now()) {
  return openDeliveries(db, { eventId, channelId, round, nowMs });
}
