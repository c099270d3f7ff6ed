// Workflows' side of heartbeats: from the stored pings to deadlines, and from deadlines and pings to statuses.
import { nextExpected, type Schedule } from "@vigil/api-contract";
import { type Db, heartbeat, heartbeatPing, maintenance, maintenanceMonitor, monitor, pingReceiver, writeBatch } from "@vigil/db-schema";
import { and, eq, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { type EvaluatedEvent, type EventStatus, type MonitorStatus, moveWrites } from "../alerts";

/** Pings kept per heartbeat for its log; older ones are dropped as new ones are evaluated. */
export const PINGS_KEPT = 200;
/** The ping server writes its liveness every second; older than this, it counts as away. */
export const RECEIVER_STALE_MS = 3_000;

export interface HeartbeatState {
  monitorId: number;
  workspaceId: number;
  status: MonitorStatus;
  statusCron: number | null;
  version: number;
  schedule: Schedule;
  lastPingId: number | null;
  lastPingAt: number | null;
  startedAt: number | null;
  deadlineAt: number | null;
  evaluatedPingId: number;
  monitorVersion: number;
  rearmedAt: number | null;
  /**
   * When the newest finished run's outcome (failed or not) began among the pings not evaluated yet: with several
   * pings arriving between two passes, a status moves at the first of them, not the last.
   */
  runStartAt?: number | null;
  /** The newest finished run's ping, for the event's details. */
  last: { id: number; failed: boolean; exitCode: number | null; body: string | null; durationMs: number | null } | null;
  maintenances: readonly { startsAt: number; endsAt: number }[];
}

export interface Receiver {
  upSince: number;
  aliveAt: number;
}

/**
 * The ping service as a whole, from each server's liveness row: the live ones (heard within
 * RECEIVER_STALE_MS) vouch only as far as the slowest of them, and it has been up since the earliest of
 * them came up (with two behind a load balancer, pings had somewhere to go while either was up). None
 * live: away.
 */
export function combineReceivers(rows: readonly Receiver[], nowMs: number): Receiver | null {
  const live = rows.filter((r) => r.aliveAt >= nowMs - RECEIVER_STALE_MS);
  if (live.length === 0) return null;
  return { upSince: Math.min(...live.map((r) => r.upSince)), aliveAt: Math.min(...live.map((r) => r.aliveAt)) };
}

export interface HeartbeatDecision {
  deadlineAt: number | null;
  rearmedAt: number | null;
  event: {
    change: EventStatus;
    next: MonitorStatus;
    cron: number;
    errorMessage: string | null;
    latencyMs: number | null;
    suppressed: boolean;
  } | null;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const secs = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);
const clip = (s: string, n = 500) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function failureMessage(last: NonNullable<HeartbeatState["last"]>): string {
  const what = last.exitCode !== null ? `the job exited with code ${last.exitCode}` : "the job reported a failure";
  const body = last.body?.trim();
  return body ? `${what}: ${clip(body)}` : what;
}

/** A run began (`/start`) and has not finished since. */
const running = (s: Pick<HeartbeatState, "lastPingAt" | "startedAt">) =>
  s.startedAt !== null && (s.lastPingAt === null || s.startedAt >= s.lastPingAt);

/** When silence becomes an error, from the stored pings alone; null until the first ping. */
export function deadlineOf(s: Pick<HeartbeatState, "schedule" | "lastPingAt" | "startedAt">): number | null {
  const grace = s.schedule.graceMs;
  if (running(s)) return s.startedAt! + grace;
  return s.lastPingAt === null ? null : nextExpected(s.schedule, s.lastPingAt) + grace;
}

/**
 * One heartbeat's next step, pure. New pings set the status (a failure is an error, a success after an
 * error recovers, with the run's duration) and a fresh deadline; an edit or a resume starts a fresh period.
 * A passed deadline alerts only if the ping server proved alive after it and was up when the ping was
 * due; otherwise it is re-armed with a period and grace from the server's return.
 */
export function decideHeartbeat(s: HeartbeatState, receiver: Receiver | null, nowMs: number): HeartbeatDecision {
  const suppressedAt = (cron: number) => s.maintenances.some((w) => w.startsAt <= cron && cron <= w.endsAt);
  const fresh = (s.lastPingId ?? 0) > s.evaluatedPingId;
  const edited = s.monitorVersion !== s.version;
  if (fresh || edited) {
    let deadlineAt = deadlineOf(s);
    // A fresh start from the edit: a run under way gets its grace from now, a periodic job its next ping.
    if (edited && deadlineAt !== null)
      deadlineAt = Math.max(deadlineAt, (running(s) ? nowMs : nextExpected(s.schedule, nowMs)) + s.schedule.graceMs);
    let event: HeartbeatDecision["event"] = null;
    const finished = s.last && s.lastPingAt !== null && (s.statusCron === null || s.lastPingAt > s.statusCron) ? s.last : null;
    if (fresh && finished && s.lastPingAt !== null) {
      const start = s.runStartAt ?? null;
      const cron = start !== null && (s.statusCron === null || start > s.statusCron) ? start : s.lastPingAt;
      if (finished.failed && s.status !== "error")
        event = {
          change: "error",
          next: "error",
          cron,
          errorMessage: failureMessage(finished),
          latencyMs: null,
          suppressed: suppressedAt(cron),
        };
      else if (!finished.failed && s.status !== "active")
        event = {
          change: "recovered",
          next: "active",
          cron,
          errorMessage: null,
          latencyMs: finished.durationMs,
          suppressed: suppressedAt(cron),
        };
    }
    return { deadlineAt, rearmedAt: null, event };
  }
  if (s.deadlineAt === null || s.deadlineAt > nowMs) return { deadlineAt: s.deadlineAt, rearmedAt: s.rearmedAt, event: null };
  // Not yet proven alive after the deadline (or away): wait; a ping may be on its way.
  if (!receiver || receiver.aliveAt < s.deadlineAt || receiver.aliveAt < nowMs - RECEIVER_STALE_MS)
    return { deadlineAt: s.deadlineAt, rearmedAt: s.rearmedAt, event: null };
  const dueFrom = s.deadlineAt - s.schedule.graceMs;
  if (receiver.upSince > dueFrom) {
    // The ping may have come while nobody could receive it: a fresh chance, as if pinged at the return.
    const again = (running(s) ? 0 : (s.schedule.periodMs ?? 0)) + s.schedule.graceMs;
    const deadlineAt = Math.max(s.deadlineAt, receiver.upSince + again);
    if (deadlineAt > s.deadlineAt) return { deadlineAt, rearmedAt: deadlineAt, event: null };
  }
  if (s.status === "error") return { deadlineAt: null, rearmedAt: null, event: null };
  const cron = s.deadlineAt;
  const errorMessage = running(s)
    ? `no ping since the run started at ${iso(s.startedAt!)}: it did not finish within its ${secs(s.schedule.graceMs)} grace`
    : `no ping since ${iso(s.lastPingAt!)}`;
  return {
    deadlineAt: null,
    rearmedAt: null,
    event: { change: "error", next: "error", cron, errorMessage, latencyMs: null, suppressed: suppressedAt(cron) },
  };
}

function scheduleOf(m: {
  hbPeriodMs: number | null;
  hbGraceMs: number | null;
  hbCron: string | null;
  hbTimezone: string | null;
}): Schedule {
  const graceMs = m.hbGraceMs ?? 60_000;
  return m.hbCron !== null ? { cron: m.hbCron, timezone: m.hbTimezone ?? "UTC", graceMs } : { periodMs: m.hbPeriodMs ?? 60_000, graceMs };
}

/** The heartbeats with something to decide: new pings, an edit, or a passed deadline. */
async function dueStates(db: Db, nowMs: number, limit: number): Promise<{ states: HeartbeatState[]; receiver: Receiver | null }> {
  const lastFinish = sql`(select max(p.id) from ${heartbeatPing} p where p.monitor_id = ${heartbeat.monitorId} and p.kind != 'start')`;
  // The first unevaluated finished ping with the newest one's outcome, after the last unevaluated one without it.
  const unevaluated = (alias: string) =>
    sql.raw(`${alias}.monitor_id = heartbeat.monitor_id and ${alias}.kind != 'start' and ${alias}.id > heartbeat.evaluated_ping_id`);
  const runStartAt = sql<number | null>`(select min(q.at) from ${heartbeatPing} q where ${unevaluated("q")}
    and (q.kind = 'fail') = (${heartbeatPing.kind} = 'fail')
    and q.id > coalesce((select max(o.id) from ${heartbeatPing} o where ${unevaluated("o")} and (o.kind = 'fail') != (${heartbeatPing.kind} = 'fail')), 0))`;
  const [rows, receivers] = await db.batch([
    db
      .select({ h: heartbeat, m: monitor, p: heartbeatPing, runStartAt })
      .from(heartbeat)
      .innerJoin(monitor, eq(monitor.id, heartbeat.monitorId))
      .leftJoin(heartbeatPing, sql`${heartbeatPing.id} = ${lastFinish}`)
      .where(
        and(
          eq(monitor.active, true),
          isNull(monitor.deletedAt),
          eq(monitor.kind, "heartbeat"),
          or(
            sql`${heartbeat.lastPingId} > ${heartbeat.evaluatedPingId}`,
            lte(heartbeat.deadlineAt, nowMs),
            sql`${heartbeat.monitorVersion} != ${monitor.version}`,
          ),
        ),
      )
      .limit(limit),
    db.select().from(pingReceiver),
  ]);
  const ids = rows.map((r) => r.m.id);
  const windows =
    ids.length === 0
      ? []
      : await db
          .select({ monitorId: maintenanceMonitor.monitorId, startsAt: maintenance.startsAt, endsAt: maintenance.endsAt })
          .from(maintenance)
          .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
          .where(and(inArray(maintenanceMonitor.monitorId, ids), gte(maintenance.endsAt, nowMs - 86_400_000)));
  const states = rows.map(
    ({ h, m, p, runStartAt }): HeartbeatState => ({
      monitorId: m.id,
      workspaceId: m.workspaceId,
      status: m.status,
      statusCron: m.statusCronTimestamp,
      version: m.version,
      schedule: scheduleOf(m),
      lastPingId: h.lastPingId,
      lastPingAt: h.lastPingAt,
      startedAt: h.startedAt,
      deadlineAt: h.deadlineAt,
      evaluatedPingId: h.evaluatedPingId,
      monitorVersion: h.monitorVersion,
      rearmedAt: h.rearmedAt,
      runStartAt: runStartAt === null ? null : Number(runStartAt),
      last: p ? { id: p.id, failed: p.kind === "fail", exitCode: p.exitCode, body: p.body, durationMs: p.durationMs } : null,
      maintenances: windows.filter((w) => w.monitorId === m.id),
    }),
  );
  return { states, receiver: combineReceivers(receivers, nowMs) };
}

/**
 * One pass over every heartbeat with something to decide; each decision is written in one atomic batch
 * guarded by what was read (the heartbeat's evaluated ping and deadline, the monitor's status), so a
 * pass that crashes is redone and two passes at once decide once. Returns the events written.
 */
export async function evaluateHeartbeats(db: Db, nowMs = Date.now(), limit = 2000): Promise<EvaluatedEvent[]> {
  const { states, receiver } = await dueStates(db, nowMs, limit);
  const events: EvaluatedEvent[] = [];
  for (const s of states) {
    const d = decideHeartbeat(s, receiver, nowMs);
    const unchanged = d.event === null && d.deadlineAt === s.deadlineAt && d.rearmedAt === s.rearmedAt;
    if (unchanged && (s.lastPingId ?? 0) === s.evaluatedPingId && s.monitorVersion === s.version) continue;
    const guard = and(
      eq(heartbeat.monitorId, s.monitorId),
      eq(heartbeat.evaluatedPingId, s.evaluatedPingId),
      s.deadlineAt === null ? isNull(heartbeat.deadlineAt) : eq(heartbeat.deadlineAt, s.deadlineAt),
    );
    const mark = db
      .update(heartbeat)
      .set({ evaluatedPingId: s.lastPingId ?? 0, deadlineAt: d.deadlineAt, rearmedAt: d.rearmedAt, monitorVersion: s.version })
      .where(guard)
      .returning({ id: heartbeat.monitorId });
    const prune = sql`delete from ${heartbeatPing} where ${heartbeatPing.monitorId} = ${s.monitorId} and ${heartbeatPing.id} <= (select id from ${heartbeatPing} where monitor_id = ${s.monitorId} order by id desc limit 1 offset ${PINGS_KEPT})`;
    if (!d.event) {
      await writeBatch(db, [mark, prune]);
      continue;
    }
    const e = d.event;
    const witness = {
      locationId: 0,
      status: "error" as const,
      cron: e.cron,
      region: "",
      online: true,
      statusCode: null,
      latencyMs: e.latencyMs,
      errorMessage: e.errorMessage,
    };
    const moves = moveWrites(
      [
        {
          monitor: {
            id: s.monitorId,
            workspaceId: s.workspaceId,
            status: s.status,
            statusCronTimestamp: s.statusCron,
            regions: [],
            deletedAt: null,
          },
          decision: { kind: "move", status: e.next, cron: e.cron, change: e.change, witness, suppressed: e.suppressed },
        },
      ],
      0,
      nowMs,
    );
    // The mark first: when another pass got here before, nothing after it may apply.
    const results = await writeBatch(db, [mark, ...moves, prune]);
    if (results[0]!.rows.length === 0) continue;
    const inserted = results[moves.length]!.rows[0];
    if (inserted)
      events.push({
        id: Number(inserted[0]),
        workspaceId: s.workspaceId,
        monitorId: s.monitorId,
        status: e.change,
        cronTimestamp: e.cron,
        suppressed: e.suppressed,
      });
  }
  return events;
}

/**
 * The earliest deadline of a running heartbeat, passed ones included (those still wait for the ping
 * server's proof, or for a pass that had too many to decide at once); null when none is armed.
 */
export async function nextHeartbeatDeadline(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | null>`min(${heartbeat.deadlineAt})` })
    .from(heartbeat)
    .innerJoin(monitor, eq(monitor.id, heartbeat.monitorId))
    .where(and(eq(monitor.active, true), isNull(monitor.deletedAt), eq(monitor.kind, "heartbeat")));
  return row?.at ?? null;
}
