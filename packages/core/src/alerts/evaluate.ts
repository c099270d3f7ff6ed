// One file: the status machine, its claim on the watermark and the settled shortcut are only correct read together.
import {
  checkResultRow,
  type Db,
  incident,
  inIds,
  maintenance,
  maintenanceMonitor,
  monitor,
  monitorEvaluation,
  monitorLocationStatus,
  privateLocation,
  rowsTable,
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
}

/** A location's latest result for a monitor, with the location's region and liveness. */
export interface LatestResult {
  locationId: number;
  status: CheckStatus;
  cron: number;
  region: string;
  online: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  errorMessage: string | null;
  /** Consecutive results of the location on the same side (error / not error) as `status`; 1 when unknown. */
  streak?: number;
}

export interface Thresholds {
  /** Consecutive failed checks before a location votes error. */
  failureThreshold: number;
  /** Consecutive good checks before a location stops voting error. */
  successThreshold: number;
}

/**
 * What a location's latest result votes once the monitor's thresholds apply. The monitor's current status is
 * the memory: while it is not in error, an error votes only from the `failureThreshold`-th in a row (before
 * that it votes for the status as it is); while it is in error, a good result votes error until the
 * `successThreshold`-th in a row. Thresholds of 1 vote the result as it is.
 */
export function thresholdedStatus(r: Pick<LatestResult, "status" | "streak">, current: MonitorStatus, t: Thresholds): CheckStatus {
  const streak = r.streak ?? 1;
  if (r.status === "error")
    return current === "error" || streak >= t.failureThreshold ? "error" : current === "degraded" ? "degraded" : "success";
  return current === "error" && streak < t.successThreshold ? "error" : r.status;
}

/** Everything one monitor's decision looks at, read in one round trip for many monitors. */
export interface EvaluationState {
  monitor:
    | ({
        id: number;
        workspaceId: number;
        status: MonitorStatus;
        /** The newest slot an evaluation decided on (moved or held). */
        statusCronTimestamp: number | null;
        regions: readonly string[];
        deletedAt: number | null;
      } & Partial<Thresholds>)
    | null;
  latest: readonly LatestResult[];
  /** The workspace's locations (not deleted), live or not. */
  locations: readonly { id: number; region: string; online: boolean }[];
  maintenances: readonly { startsAt: number; endsAt: number }[];
}

export type Decision =
  /** Nothing to decide on (or a late result): pending results are settled, the status stays. */
  | { kind: "settle"; status: MonitorStatus | null; cron: number | null }
  /** The status holds at a newer slot. */
  | { kind: "hold"; status: MonitorStatus; cron: number }
  /** The status moves and an event announces it. */
  | { kind: "move"; status: MonitorStatus; cron: number; change: EventStatus; witness: LatestResult; suppressed: boolean };

/**
 * The status machine, pure: from each location's latest result to the monitor's status and the event
 * a move announces. Only live locations vote: an offline probe's last result (green or red) says
 * nothing about now. One that is live but has not reported yet counts as healthy, so the first
 * location to report cannot decide alone for four. A late result never moves the status backwards.
 */
export function decide(s: EvaluationState): Decision {
  const m = s.monitor;
  if (!m || m.deletedAt !== null) return { kind: "settle", status: null, cron: null };
  const serving = s.latest.filter((r) => r.online && m.regions.includes(r.region));
  if (serving.length === 0) return { kind: "settle", status: m.status, cron: null };
  const reported = new Set(s.latest.map((r) => r.locationId));
  const silent = s.locations.filter((l) => m.regions.includes(l.region) && l.online && !reported.has(l.id)).length;
  const t = { failureThreshold: m.failureThreshold ?? 1, successThreshold: m.successThreshold ?? 1 };
  const votes = serving.map((r) => thresholdedStatus(r, m.status, t));
  const next = aggregate([...votes, ...Array<CheckStatus>(silent).fill("success")])!;
  const cron = Math.max(...serving.map((r) => r.cron));
  if (m.statusCronTimestamp !== null && cron < m.statusCronTimestamp) return { kind: "settle", status: m.status, cron };
  const change = transition(m.status, next);
  if (!change) return { kind: "hold", status: next, cron };
  // The payload's details come from the newest result that shows the new state.
  const witness =
    [...serving]
      .sort((a, b) => b.cron - a.cron)
      .find((r) => (change === "recovered" ? r.status !== "error" : change === "error" ? r.status === "error" : r.status !== "success")) ??
    serving[0]!;
  const suppressed = s.maintenances.some((w) => w.startsAt <= cron && cron <= w.endsAt);
  return { kind: "move", status: next, cron, change, witness, suppressed };
}

/** Re-computes one monitor's status from its locations' latest results and records the change. */
export async function evaluateMonitor(db: Db, monitorId: number, nowMs = Date.now()): Promise<Evaluation> {
  return (await evaluateMonitors(db, [monitorId], nowMs))[0]!;
}

/**
 * Evaluates many monitors with one read round trip and one write batch: each monitor's status from its
 * locations' latest statuses (not its results), the database written only where a status moves, plus one
 * row per monitor recording how far evaluation has read. A move applies only if the monitor's latest
 * statuses are still those that were read (compare-and-set); the monitors that lost a race start over.
 * A replay of the same slot finds the event already there (unique on monitor, slot, status).
 */
export async function evaluateMonitors(db: Db, monitorIds: readonly number[], nowMs = Date.now()): Promise<Evaluation[]> {
  const out = new Map<number, Evaluation>();
  let todo = [...new Set(monitorIds)];
  for (let attempt = 0; todo.length > 0; attempt++) {
    if (attempt > 20) throw new Error(`monitors ${todo.join(", ")}: evaluation kept conflicting`);
    const { states, through } = await readStates(db, todo, nowMs);
    const { evaluations, conflicts } = await applyDecisions(db, states, through, nowMs);
    for (const e of evaluations) out.set(e.monitorId, e);
    todo = conflicts;
  }
  return monitorIds.map((id) => out.get(id)!);
}

async function readStates(db: Db, ids: number[], nowMs: number) {
  // One read transaction: every result up to `through` has its effect on the latest statuses read here.
  const [monitors, latest, maintenances, locations, [newest]] = await db.batch([
    db
      .select({
        id: monitor.id,
        workspaceId: monitor.workspaceId,
        status: monitor.status,
        statusCronTimestamp: sql<
          number | null
        >`max(coalesce(${monitor.statusCronTimestamp}, ${monitorEvaluation.cron}), coalesce(${monitorEvaluation.cron}, ${monitor.statusCronTimestamp}))`,
        regions: monitor.regions,
        deletedAt: monitor.deletedAt,
        failureThreshold: monitor.failureThreshold,
        successThreshold: monitor.successThreshold,
      })
      .from(monitor)
      .leftJoin(monitorEvaluation, eq(monitorEvaluation.monitorId, monitor.id))
      .where(inIds(monitor.id, ids)),
    db
      .select({
        monitorId: monitorLocationStatus.monitorId,
        locationId: monitorLocationStatus.locationId,
        status: monitorLocationStatus.status,
        cron: monitorLocationStatus.cronTimestamp,
        region: privateLocation.region,
        online: privateLocation.online,
        statusCode: monitorLocationStatus.statusCode,
        latencyMs: monitorLocationStatus.latencyMs,
        errorMessage: monitorLocationStatus.errorMessage,
        streak: monitorLocationStatus.streak,
      })
      .from(monitorLocationStatus)
      .innerJoin(privateLocation, eq(privateLocation.id, monitorLocationStatus.locationId))
      .where(and(inIds(monitorLocationStatus.monitorId, ids), isNull(privateLocation.deletedAt))),
    db
      .select({ monitorId: maintenanceMonitor.monitorId, startsAt: maintenance.startsAt, endsAt: maintenance.endsAt })
      .from(maintenance)
      .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
      .where(and(inIds(maintenanceMonitor.monitorId, ids), gte(maintenance.endsAt, nowMs - 86_400_000))),
    db
      .select({
        workspaceId: privateLocation.workspaceId,
        id: privateLocation.id,
        region: privateLocation.region,
        online: privateLocation.online,
      })
      .from(privateLocation)
      .where(
        and(
          inArray(privateLocation.workspaceId, db.selectDistinct({ w: monitor.workspaceId }).from(monitor).where(inIds(monitor.id, ids))),
          isNull(privateLocation.deletedAt),
        ),
      ),
    db.select({ through: sql<number>`coalesce(max(${checkResultRow.id}), 0)` }).from(checkResultRow),
  ]);
  const states = new Map<number, EvaluationState>(ids.map((id) => [id, { monitor: null, latest: [], locations: [], maintenances: [] }]));
  for (const m of monitors) {
    const s = states.get(m.id)!;
    s.monitor = { ...m, status: m.status as MonitorStatus };
    s.locations = locations.filter((l) => l.workspaceId === m.workspaceId);
  }
  for (const r of latest) (states.get(r.monitorId)!.latest as LatestResult[]).push(r);
  for (const w of maintenances) (states.get(w.monitorId)!.maintenances as EvaluationState["maintenances"][number][]).push(w);
  return { states, through: Number(newest?.through ?? 0) };
}

type Query = Parameters<typeof writeBatch>[1][number];
/** The writes of every decision in one batch: the moves, then how far each monitor has been read. */
async function applyDecisions(db: Db, states: Map<number, EvaluationState>, through: number, nowMs: number) {
  const decisions = [...states].map(([id, s]) => ({ id, s, d: decide(s) }));
  const moves: Move[] = [];
  for (const { s, d } of decisions) if (d.kind === "move") moves.push({ monitor: s.monitor!, decision: d });
  const writes: Query[] = moves.length > 0 ? moveWrites(moves, through, nowMs) : [];
  // The watermark only moves forward, and the newest slot decided on with it (a later, slower
  // evaluation that read less changes neither). Deleted monitors have no row to keep.
  const marks = decisions.filter(({ s }) => s.monitor !== null).map(({ id, d }) => [id, through, d.cron, nowMs]);
  if (marks.length > 0)
    writes.push(
      sql`insert into ${monitorEvaluation} (monitor_id, through, cron, evaluated_at) select column1, column2, column3, column4 from ${rowsTable(marks)} where true on conflict (monitor_id) do update set through = max(through, excluded.through), cron = max(coalesce(cron, excluded.cron), coalesce(excluded.cron, cron)), evaluated_at = excluded.evaluated_at where excluded.through >= through`,
    );
  const results = await writeBatch(db, writes);
  const claimed = new Set(moves.length > 0 ? results[0]!.rows.map((r) => Number(r[0])) : []);
  const inserted = new Map(moves.length > 0 ? results[MOVE_WRITES - 1]!.rows.map((r) => [Number(r[1]), Number(r[0])]) : []);

  const conflicts: number[] = [];
  const events = new Map<number, EvaluatedEvent>();
  for (const { monitor: m, decision: d } of moves) {
    if (!claimed.has(m.id)) {
      conflicts.push(m.id);
      continue;
    }
    const id = inserted.get(m.id);
    if (id !== undefined)
      events.set(m.id, {
        id,
        workspaceId: m.workspaceId,
        monitorId: m.id,
        status: d.change,
        cronTimestamp: d.cron,
        suppressed: d.suppressed,
      });
  }
  const evaluations: Evaluation[] = [];
  for (const { id, d } of decisions) {
    if (conflicts.includes(id)) continue;
    evaluations.push({ monitorId: id, status: d.status, event: events.get(id) ?? null, cronTimestamp: d.cron });
  }
  return { evaluations, conflicts };
}

/** A status move to write: the monitor as it was read, and where it goes. */
export interface Move {
  monitor: NonNullable<EvaluationState["monitor"]>;
  decision: Extract<Decision, { kind: "move" }>;
}

/** How many statements `moveWrites` returns: the claims first, the events (their ids and monitors) last. */
export const MOVE_WRITES = 4;

/**
 * Status moves, each statement for all of them: the claim (compare-and-set on the status read and on no newer
 * result having reached the monitor's latest statuses since; returns the monitors claimed), the incidents
 * opened and resolved, the events (returns each new event's id and monitor). Every write after the claim
 * applies only to a monitor the claim left in its new state.
 */
export function moveWrites(moves: readonly Move[], through: number, nowMs: number): Query[] {
  const rows = moves.map(({ monitor: m, decision: d }) => [
    m.id,
    m.workspaceId,
    m.status,
    d.status,
    d.cron,
    d.change,
    d.witness.statusCode,
    d.witness.latencyMs,
    d.witness.errorMessage,
    d.suppressed ? 1 : 0,
  ]);
  // v: 1 monitor, 2 workspace, 3 status read, 4 next status, 5 slot, 6 event, 7 status code, 8 latency, 9 error, 10 suppressed.
  const v = sql`${rowsTable(rows)} as v`;
  const s = monitorLocationStatus;
  const claimed = sql`exists (select 1 from ${monitor} where ${monitor.id} = v.column1 and ${monitor.status} = v.column4 and ${monitor.statusCronTimestamp} = v.column5)`;
  const latestIncident = sql`(select max(${incident.id}) from ${incident} where ${incident.monitorId} = v.column1 and (${incident.resolvedAt} is null or ${incident.resolvedAt} = v.column5))`;
  return [
    sql`update ${monitor} set status = v.column4, status_cron_timestamp = v.column5 from ${v}
      where ${monitor.id} = v.column1 and ${monitor.status} = v.column3
      and not exists (select 1 from ${s} where ${s.monitorId} = v.column1 and ${s.resultRowid} > ${through}) returning id`,
    sql`insert into ${incident} (workspace_id, monitor_id, started_at, cause) select v.column2, v.column1, v.column5, v.column9 from ${v}
      where v.column6 = 'error' and ${claimed} and not exists (select 1 from ${incident} where ${incident.monitorId} = v.column1 and ${incident.resolvedAt} is null)`,
    sql`update ${incident} set resolved_at = v.column5 from ${v}
      where v.column6 = 'recovered' and ${incident.monitorId} = v.column1 and ${incident.resolvedAt} is null and ${claimed}`,
    sql`insert into ${statusEvent} (workspace_id, monitor_id, status, previous_status, cron_timestamp, status_code, latency_ms, error_message, incident_id, suppressed, dispatched_at, created_at)
      select v.column2, v.column1, v.column6, v.column3, v.column5, v.column7, v.column8, v.column9,
        case when v.column6 = 'degraded' then null else ${latestIncident} end, v.column10, null, ${nowMs}
      from ${v} where ${claimed} on conflict do nothing returning id, monitor_id`,
  ];
}

/** Monitors whose latest statuses have moved past their last evaluation for more than `olderThanMs` (left while Redis was away). */
export async function pendingEvaluations(db: Db, olderThanMs: number, nowMs = Date.now(), limit = 1000) {
  const s = monitorLocationStatus;
  return db
    .select({ monitorId: s.monitorId, cronTimestamp: sql<number>`max(${s.cronTimestamp})` })
    .from(s)
    .leftJoin(monitorEvaluation, eq(monitorEvaluation.monitorId, s.monitorId))
    .where(and(sql`${s.resultRowid} > coalesce(${monitorEvaluation.through}, 0)`, lte(s.updatedAt, nowMs - olderThanMs)))
    .groupBy(s.monitorId)
    .limit(limit);
}
