// Routing many events' alerts at once: one read, one write before the queue and one after, however many events
// (a thousand monitors going down in one window is three round trips here, not thousands).
import {
  alertTimer,
  type Db,
  escalationPolicy,
  inIds,
  inPasses,
  monitor,
  monitorChannel,
  monitorDependency,
  notificationChannel,
  notificationDelivery,
  rowsTable,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { markDispatched } from "./delivery-context";
import { HOLD_GRACE_MS } from "./dependencies";
import { followUpRows, type TimerSend } from "./follow-ups";

/** Where an event's alert goes: queued to `send`, held for a parent, or suppressed with a reason. */
export type Route = { send: number[] } | { held: true } | { suppressed: string };

type Query = Parameters<typeof writeBatch>[1][number];
/** What routing reads of an event. */
const routedEvent = {
  id: statusEvent.id,
  workspaceId: statusEvent.workspaceId,
  monitorId: statusEvent.monitorId,
  status: statusEvent.status,
  suppressed: statusEvent.suppressed,
  createdAt: statusEvent.createdAt,
};

/** What the routing of these events reads, in one round trip. */
async function readRouting(db: Db, eventIds: number[]) {
  const r = alias(statusEvent, "r");
  const ofEvents = db.select({ id: r.monitorId }).from(r).where(inIds(r.id, eventIds));
  // The alert a recovery ends is the events since the previous recovery: their escalation steps and holds.
  const previousRecovery = sql`coalesce((select max(${statusEvent.id}) from ${statusEvent} where ${statusEvent.monitorId} = ${r.monitorId} and ${statusEvent.status} = 'recovered' and ${statusEvent.id} < ${r.id}), 0)`;
  const [events, links, policies, parents, timers, pending] = await db.batch([
    db.select(routedEvent).from(statusEvent).where(inIds(statusEvent.id, eventIds)),
    db
      .select({
        monitorId: monitorChannel.monitorId,
        channelId: monitorChannel.channelId,
        link: monitorChannel.remindEveryMs,
        monitor: monitor.remindEveryMs,
      })
      .from(monitorChannel)
      .innerJoin(monitor, eq(monitor.id, monitorChannel.monitorId))
      .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
      .where(and(inArray(monitorChannel.monitorId, ofEvents), eq(notificationChannel.enabled, true)))
      .orderBy(monitorChannel.channelId),
    db
      .select({ monitorId: monitor.id, policy: escalationPolicy })
      .from(monitor)
      .innerJoin(escalationPolicy, eq(escalationPolicy.id, monitor.escalationPolicyId))
      .where(inArray(monitor.id, ofEvents)),
    db
      .selectDistinct({ monitorId: monitorDependency.monitorId })
      .from(monitorDependency)
      .where(inArray(monitorDependency.monitorId, ofEvents)),
    db
      .select({
        recoveryId: r.id,
        kind: alertTimer.kind,
        channelIds: alertTimer.channelIds,
        outcome: alertTimer.outcome,
        firedAt: alertTimer.firedAt,
      })
      .from(r)
      .innerJoin(
        alertTimer,
        and(
          eq(alertTimer.monitorId, r.monitorId),
          lt(alertTimer.eventId, r.id),
          sql`${alertTimer.eventId} > ${previousRecovery}`,
          inArray(alertTimer.kind, ["step", "hold"]),
        ),
      )
      .where(and(inIds(r.id, eventIds), eq(r.status, "recovered")))
      .orderBy(alertTimer.eventId, alertTimer.id),
    // Monitors with a timer still to fire: only theirs need closing (most monitors have none).
    db
      .selectDistinct({ monitorId: alertTimer.monitorId })
      .from(alertTimer)
      .where(and(inArray(alertTimer.monitorId, ofEvents), isNull(alertTimer.firedAt))),
  ]);
  return { events, links, policies, parents, timers, pending: new Set(pending.map((p) => p.monitorId)) };
}

/**
 * The routes of these events and the writes that go with them: each closes the older alert's timers; an error
 * or degraded alert waits for its parents if it has any, else plans its reminders and escalation; a recovery
 * goes to the linked channels and to every channel an escalation step notified, or nowhere if its alert was
 * never sent (held for a parent). At most one event per monitor: a recovery reads what its alert planned.
 */
async function planRoutes(db: Db, eventIds: number[], nowMs: number) {
  const { events, links, policies, parents, timers, pending } = await readRouting(db, eventIds);
  const linked = new Map<number, number[]>();
  const intervals = new Map<number, Map<number, number>>();
  for (const l of links) {
    linked.set(l.monitorId, [...(linked.get(l.monitorId) ?? []), l.channelId]);
    const every = l.link ?? l.monitor;
    if (every) intervals.set(l.monitorId, (intervals.get(l.monitorId) ?? new Map()).set(l.channelId, every));
  }
  const policyOf = new Map(policies.map((p) => [p.monitorId, p.policy]));
  const hasParents = new Set(parents.map((p) => p.monitorId));
  const routes = new Map<number, { linked: number[]; route: Route }>();
  const writes: Query[] = [];
  const closing: [number, number, string][] = [];
  for (const ev of events) {
    const channels = linked.get(ev.monitorId) ?? [];
    if (ev.suppressed) {
      routes.set(ev.id, { linked: channels, route: { suppressed: "maintenance window" } });
      continue;
    }
    // A timer planned after this read (an older alert's next reminder) finds itself superseded when it comes due.
    if (pending.has(ev.monitorId)) closing.push([ev.monitorId, ev.id, ev.status === "recovered" ? "recovered" : "superseded"]);
    let route: Route;
    if (ev.status !== "recovered") {
      if (hasParents.has(ev.monitorId)) {
        const hold = { workspaceId: ev.workspaceId, monitorId: ev.monitorId, eventId: ev.id, kind: "hold" as const, key: 0 };
        writes.push(
          db
            .insert(alertTimer)
            .values({ ...hold, channelIds: [], dueAt: nowMs + HOLD_GRACE_MS })
            .onConflictDoNothing(),
        );
        route = { held: true };
      } else {
        const rows = followUpRows(ev, intervals.get(ev.monitorId) ?? new Map(), policyOf.get(ev.monitorId) ?? null, ev.createdAt);
        if (rows.length > 0) writes.push(db.insert(alertTimer).values(rows).onConflictDoNothing());
        route = { send: channels };
      }
    } else {
      const ended = timers.filter((t) => t.recoveryId === ev.id);
      // A timer still unfired is closed as "recovered" by this very routing.
      const lastHold = ended.filter((t) => t.kind === "hold").at(-1);
      const holdOutcome = lastHold?.outcome;
      if (lastHold && !(lastHold.firedAt !== null && holdOutcome?.startsWith("released")))
        route = {
          suppressed: holdOutcome?.startsWith("held: ")
            ? holdOutcome.replace(/^held: /, "suppressed: ")
            : "suppressed: its alert was held for a parent",
        };
      else {
        const escalated = ended.filter((t) => t.kind === "step" && t.outcome === "sent").flatMap((t) => t.channelIds);
        route = { send: [...new Set([...channels, ...escalated])].sort((a, b) => a - b) };
      }
    }
    routes.set(ev.id, { linked: channels, route });
  }
  // The older alerts' timers of every routed monitor, closed in one statement.
  if (closing.length > 0)
    writes.unshift(
      sql`update ${alertTimer} set fired_at = ${nowMs}, outcome = v.column3 from ${rowsTable(closing)} as v
        where ${alertTimer.monitorId} = v.column1 and ${alertTimer.eventId} < v.column2 and ${alertTimer.firedAt} is null`,
    );
  return { routes, writes };
}

/** Decides one event's recipients and plans what follows it (see `planRoutes`). */
export async function routeAlert(db: Db, eventId: number, nowMs = Date.now()): Promise<Route> {
  const { routes, writes } = await planRoutes(db, [eventId], nowMs);
  if (writes.length > 0) await writeBatch(db, writes);
  return routes.get(eventId)?.route ?? { send: [] };
}

export interface Dispatched {
  eventId: number;
  /** Channels queued, or (when suppressed) logged as suppressed. */
  channels: number;
  held?: true;
  suppressed?: string;
}

/**
 * Routes and queues the alerts of these events: the routing's writes and the suppressed ones' log rows land
 * in one write, the sends are queued (through `queue`, idempotent by job id), then the events are marked
 * dispatched. A crash in between leaves them undispatched for the sweep, which repeats the queueing, never a
 * message. Several events of one monitor are routed oldest first, each after the one before.
 */
export async function dispatchEvents(
  db: Db,
  events: readonly { id: number; monitorId: number }[],
  queue: (sends: TimerSend[]) => Promise<void>,
  nowMs = Date.now(),
): Promise<Dispatched[]> {
  const out: Dispatched[] = [];
  const oldestFirst = [...new Map(events.map((e) => [e.id, e])).values()].sort((a, b) => a.id - b.id);
  for (const pass of inPasses(oldestFirst, (e) => e.monitorId)) {
    const { routes, writes } = await planRoutes(
      db,
      pass.map((e) => e.id),
      nowMs,
    );
    const sends: TimerSend[] = [];
    const suppressedRows = [];
    const suppressedIds: number[] = [];
    const sentIds: number[] = [];
    for (const [eventId, { linked, route }] of routes) {
      if ("suppressed" in route) {
        suppressedIds.push(eventId);
        for (const channelId of linked)
          suppressedRows.push({
            eventId,
            channelId,
            attempt: 0,
            outcome: "suppressed" as const,
            error: route.suppressed,
            createdAt: nowMs,
          });
        out.push({ eventId, channels: linked.length, suppressed: route.suppressed });
        continue;
      }
      sentIds.push(eventId);
      const to = "send" in route ? route.send : [];
      for (const channelId of to) sends.push({ eventId, channelId, round: 0 });
      out.push({ eventId, channels: to.length, ...("held" in route ? { held: true as const } : {}) });
    }
    if (suppressedRows.length > 0) writes.push(db.insert(notificationDelivery).values(suppressedRows));
    if (suppressedIds.length > 0)
      writes.push(db.update(statusEvent).set({ dispatchedAt: nowMs }).where(inIds(statusEvent.id, suppressedIds)));
    if (writes.length > 0) await writeBatch(db, writes);
    if (sends.length > 0) await queue(sends);
    await markDispatched(db, sentIds, nowMs);
  }
  return out;
}
