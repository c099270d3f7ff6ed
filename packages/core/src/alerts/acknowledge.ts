// Acknowledging an alert: from the dashboard, the API/CLI, or a signed link carried by the alert itself.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Acknowledgement } from "@vigil/api-contract";
import {
  alertAck,
  alertTimer,
  currentKeyring,
  type Db,
  incident,
  monitor,
  notificationChannel,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, desc, eq, inArray, isNull, max, ne } from "drizzle-orm";
import { type Actor, auditInsert } from "../audit";
import { ConflictError, NotFoundError } from "../errors";
import { newestEvent } from "./follow-ups";

export type AckVia = Acknowledgement["via"];

/** How long a link in an alert keeps working: long enough for a weekend, short enough that an old mail is harmless. */
export const ACK_LINK_TTL_MS = 7 * 86_400_000;

const b64 = (s: string) => Buffer.from(s).toString("base64url");
const linkKeys = new WeakMap<Buffer, Buffer>();
/** Derived once per key: every alert signs a link, and the derivation would double that work. */
function linkKey(key: Buffer): Buffer {
  let derived = linkKeys.get(key);
  if (!derived) {
    derived = createHmac("sha256", key).update("vigil ack link v1").digest();
    linkKeys.set(key, derived);
  }
  return derived;
}
const sign = (key: Buffer, body: string) => createHmac("sha256", linkKey(key)).update(body).digest("base64url");

/**
 * A link token for one event's alert on one channel: `kid.payload.mac`, an HMAC under the instance's secret
 * key (VIGIL_SECRET_KEY), so it cannot be guessed or altered; it names its expiry. Null without a key.
 */
export function ackToken(eventId: number, channelId: number, nowMs = Date.now(), ttlMs = ACK_LINK_TTL_MS): string | null {
  const ring = currentKeyring();
  if (!ring) return null;
  const body = `${ring.primary}.${b64(JSON.stringify({ e: eventId, c: channelId, x: nowMs + ttlMs }))}`;
  return `${body}.${sign(ring.keys.get(ring.primary)!, body)}`;
}

export class AckLinkError extends Error {
  readonly code = "invalid_link";
  override name = "AckLinkError";
}

/** What a token says, once its signature and expiry hold. */
export function readAckToken(token: string, nowMs = Date.now()): { eventId: number; channelId: number; expiresAt: number } {
  const parts = token.split(".");
  const ring = currentKeyring();
  const key = parts.length === 3 ? ring?.keys.get(parts[0]!) : undefined;
  if (!key) throw new AckLinkError("this acknowledge link is not valid");
  const expected = Buffer.from(sign(key, `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new AckLinkError("this acknowledge link is not valid");
  const p = JSON.parse(Buffer.from(parts[1]!, "base64url").toString()) as { e: number; c: number; x: number };
  if (p.x < nowMs) throw new AckLinkError("this acknowledge link has expired; acknowledge from the dashboard instead");
  return { eventId: p.e, channelId: p.c, expiresAt: p.x };
}

/** The event an acknowledgement applies to: the monitor's newest, while it is still down or degraded. */
async function openEvent(db: Db, workspaceId: number, target: { monitorId?: number; incidentId?: number; eventId?: number }) {
  if (target.incidentId !== undefined) {
    const [inc] = await db
      .select()
      .from(incident)
      .where(and(eq(incident.id, target.incidentId), eq(incident.workspaceId, workspaceId)));
    if (!inc) throw new NotFoundError("incident", target.incidentId);
    if (inc.resolvedAt !== null) throw new ConflictError(`incident ${inc.id} is resolved; there is nothing to acknowledge`);
    target = { monitorId: inc.monitorId };
  }
  const where = target.eventId !== undefined ? eq(statusEvent.id, target.eventId) : eq(statusEvent.monitorId, target.monitorId!);
  const [row] = await db
    .select({ event: statusEvent, monitor: { id: monitor.id, name: monitor.name, status: monitor.status, deletedAt: monitor.deletedAt } })
    .from(statusEvent)
    .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
    .where(and(where, eq(statusEvent.workspaceId, workspaceId)))
    .orderBy(desc(statusEvent.id))
    .limit(1);
  if (!row || row.monitor.deletedAt !== null) {
    if (target.monitorId !== undefined) {
      const [m] = await db
        .select({ id: monitor.id })
        .from(monitor)
        .where(and(eq(monitor.id, target.monitorId), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
      if (!m) throw new NotFoundError("monitor", target.monitorId);
      throw new ConflictError(`monitor ${target.monitorId} has no alert to acknowledge`);
    }
    throw new NotFoundError("alert", target.eventId ?? 0);
  }
  return row;
}

/** Whether an event's alert is still open: the monitor's newest event, and the monitor still down or degraded. */
async function isOpen(db: Db, eventId: number, monitorId: number, status: string) {
  const [newest] = await newestEvent(db, monitorId);
  return newest?.id === eventId && status !== "active";
}

export interface OpenAlert {
  eventId: number;
  status: "error" | "degraded";
  acknowledged: boolean;
}

/**
 * The open alerts of these monitors (the newest event, while the monitor is still down or degraded), and
 * whether each is acknowledged: what the monitor list shows beside each row. Another workspace's monitors are absent.
 */
export async function openAlerts(db: Db, workspaceId: number, monitorIds: readonly number[]): Promise<Map<number, OpenAlert>> {
  if (monitorIds.length === 0) return new Map();
  const newest = db
    .select({ monitorId: statusEvent.monitorId, id: max(statusEvent.id).as("newest_id") })
    .from(statusEvent)
    .where(inArray(statusEvent.monitorId, [...monitorIds]))
    .groupBy(statusEvent.monitorId)
    .as("newest");
  const rows = await db
    .select({ monitorId: monitor.id, eventId: statusEvent.id, status: statusEvent.status, ack: alertAck.eventId })
    .from(newest)
    .innerJoin(statusEvent, eq(statusEvent.id, newest.id))
    .innerJoin(monitor, eq(monitor.id, newest.monitorId))
    .leftJoin(alertAck, eq(alertAck.eventId, statusEvent.id))
    .where(
      and(
        eq(monitor.workspaceId, workspaceId),
        isNull(monitor.deletedAt),
        ne(monitor.status, "active"),
        ne(statusEvent.status, "recovered"),
      ),
    );
  return new Map(
    rows.map((r) => [r.monitorId, { eventId: r.eventId, status: r.status as OpenAlert["status"], acknowledged: r.ack !== null }]),
  );
}

/**
 * Acknowledges the open alert of a monitor (or incident, or event): its reminders and escalation stop, the
 * incident shows who, the audit log records it. Acknowledging twice keeps the first.
 */
export async function acknowledgeAlert(
  db: Db,
  workspaceId: number,
  target: { monitorId?: number; incidentId?: number; eventId?: number },
  actor: Actor,
  via: AckVia,
  nowMs = Date.now(),
): Promise<Acknowledgement & { created: boolean; monitorName: string }> {
  const { event, monitor: m } = await openEvent(db, workspaceId, target);
  if (event.status === "recovered" || !(await isOpen(db, event.id, m.id, m.status)))
    throw new ConflictError(`monitor ${m.id} has no open alert to acknowledge (it has recovered)`);
  const [existing] = await db.select().from(alertAck).where(eq(alertAck.eventId, event.id));
  if (existing) return { ...shape(existing), created: false, monitorName: m.name };
  const results = await writeBatch(db, [
    db
      .insert(alertAck)
      .values({ eventId: event.id, workspaceId, monitorId: m.id, incidentId: event.incidentId, actor, via, createdAt: nowMs })
      .onConflictDoNothing()
      .returning(),
    db
      .update(alertTimer)
      .set({ firedAt: nowMs, outcome: "acknowledged" })
      .where(and(eq(alertTimer.monitorId, m.id), isNull(alertTimer.firedAt), inArray(alertTimer.kind, ["remind", "step"]))),
    ...(event.incidentId !== null
      ? [
          db
            .update(incident)
            .set({ acknowledgedAt: nowMs, acknowledgedBy: actor })
            .where(and(eq(incident.id, event.incidentId), isNull(incident.acknowledgedAt))),
        ]
      : []),
    auditInsert(db, {
      workspaceId,
      actor,
      action: "alert.acknowledge",
      targetType: "monitor",
      targetId: m.id,
      metadata: { eventId: event.id, incidentId: event.incidentId, via, status: event.status },
    }),
  ]);
  const inserted = results[0]!.rows[0];
  const [row] = await db.select().from(alertAck).where(eq(alertAck.eventId, event.id));
  return { ...shape(row!), created: inserted !== undefined, monitorName: m.name };
}

const shape = (r: typeof alertAck.$inferSelect): Acknowledgement => ({
  eventId: r.eventId,
  monitorId: r.monitorId,
  incidentId: r.incidentId,
  actor: r.actor,
  via: r.via as AckVia,
  createdAt: r.createdAt,
});

/** What a link's confirm page shows before anyone presses the button (a GET changes nothing). */
export async function describeAckLink(db: Db, token: string, nowMs = Date.now()) {
  const t = readAckToken(token, nowMs);
  const [row] = await db
    .select({ event: statusEvent, monitorName: monitor.name, monitorStatus: monitor.status, channel: notificationChannel.name })
    .from(statusEvent)
    .innerJoin(monitor, eq(monitor.id, statusEvent.monitorId))
    .leftJoin(notificationChannel, eq(notificationChannel.id, t.channelId))
    .where(eq(statusEvent.id, t.eventId));
  if (!row) throw new AckLinkError("this alert no longer exists");
  const [ack] = await db.select().from(alertAck).where(eq(alertAck.eventId, t.eventId));
  return {
    monitorName: row.monitorName,
    status: row.event.status,
    since: row.event.cronTimestamp,
    channel: row.channel,
    open: await isOpen(db, row.event.id, row.event.monitorId, row.monitorStatus),
    acknowledged: ack ? shape(ack) : null,
  };
}

/** The confirming POST of a link: acknowledges as "link via <channel>". */
export async function acknowledgeByLink(db: Db, token: string, nowMs = Date.now()) {
  const t = readAckToken(token, nowMs);
  const [row] = await db
    .select({ workspaceId: statusEvent.workspaceId, channel: notificationChannel.name })
    .from(statusEvent)
    .leftJoin(notificationChannel, eq(notificationChannel.id, t.channelId))
    .where(eq(statusEvent.id, t.eventId));
  if (!row) throw new AckLinkError("this alert no longer exists");
  try {
    return await acknowledgeAlert(
      db,
      row.workspaceId,
      { eventId: t.eventId },
      `link:${row.channel ?? `channel ${t.channelId}`}`,
      "link",
      nowMs,
    );
  } catch (err) {
    if (err instanceof ConflictError || err instanceof NotFoundError) throw new AckLinkError(err.message);
    throw err;
  }
}

/** Acknowledgements of a monitor's incidents, for the incident list. */
export async function acknowledgementsOf(db: Db, workspaceId: number, monitorId: number, limit = 20): Promise<Acknowledgement[]> {
  const rows = await db
    .select()
    .from(alertAck)
    .where(and(eq(alertAck.monitorId, monitorId), eq(alertAck.workspaceId, workspaceId)))
    .orderBy(desc(alertAck.createdAt))
    .limit(limit);
  return rows.map(shape);
}
