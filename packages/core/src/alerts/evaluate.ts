// One file: the status machine, its claim on the watermark and the settled shortcut are only correct read together.
import {
  checkResultRow,
  type Db,
  incident,
  maintenance,
  maintenanceMonitor,
  monitor,
  monitorEvaluation,
  monitorLocationStatus,
  privateLocation,
  statusEvent,
  writeBatch,
} from "@vigil/db-schema";
import { and, eq, gte, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

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
      .where(inArray(monitor.id, ids)),
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
      .where(and(inArray(monitorLocationStatus.monitorId, ids), isNull(privateLocation.deletedAt))),
    db
      .select({ monitorId: maintenanceMonitor.monitorId, startsAt: maintenance.startsAt, endsAt: maintenance.endsAt })
      .from(maintenance)
      .innerJoin(maintenanceMonitor, eq(maintenanceMonitor.maintenanceId, maintenance.id))
      .where(and(inArray(maintenanceMonitor.monitorId, ids), gte(maintenance.endsAt, nowMs - 86_400_000))),
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
          inArray(privateLocation.workspaceId, db.selectDistinct({ w: monitor.workspaceId }).from(monitor).where(inArray(monitor.id, ids))),
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
const dialect = new SQLiteAsyncDialect();
const raw = (q: SQL): Query => ({ toSQL: () => dialect.sqlToQuery(q) });
const valuesList = (rows: unknown[][]) =>
  sql.join(
    rows.map(
      (r) =>
        sql`(${sql.join(
          r.map((v) => sql`${v}`),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );

/** The writes of every decision in one batch: the moves, then how far each monitor has been read. */
async function applyDecisions(db: Db, states: Map<number, EvaluationState>, through: number, nowMs: number) {
  const decisions = [...states].map(([id, s]) => ({ id, s, d: decide(s) }));
  const writes: Query[] = [];
  const moves: { id: number; d: Extract<Decision, { kind: "move" }>; workspaceId: number; claimAt: number; eventAt: number }[] = [];
  for (const { id, s, d } of decisions) {
    if (d.kind !== "move") continue;
    const m = s.monitor!;
    const claimAt = writes.length;
    writes.push(...moveWrites(db, m, d, through, nowMs));
    moves.push({ id, d, workspaceId: m.workspaceId, claimAt, eventAt: writes.length - 1 });
  }
  // The watermark only moves forward, and the newest slot decided on with it (a later, slower
  // evaluation that read less changes neither). Deleted monitors have no row to keep.
  const marks = decisions.filter(({ s }) => s.monitor !== null).map(({ id, d }) => [id, through, d.cron, nowMs]);
  if (marks.length > 0)
    writes.push(
      raw(
        sql`insert into ${monitorEvaluation} (monitor_id, through, cron, evaluated_at) select column1, column2, column3, column4 from (values ${valuesList(marks)}) where true on conflict (monitor_id) do update set through = max(through, excluded.through), cron = max(coalesce(cron, excluded.cron), coalesce(excluded.cron, cron)), evaluated_at = excluded.evaluated_at where excluded.through >= through`,
      ),
    );
  const results = await writeBatch(db, writes);

  const conflicts: number[] = [];
  const evaluations: Evaluation[] = [];
  const events = new Map<number, EvaluatedEvent | null>();
  for (const mv of moves) {
    if (results[mv.claimAt]!.rows.length === 0) {
      conflicts.push(mv.id);
      continue;
    }
    const inserted = results[mv.eventAt]!.rows[0];
    events.set(
      mv.id,
      inserted
        ? {
            id: Number(inserted[0]),
            workspaceId: mv.workspaceId,
            monitorId: mv.id,
            status: mv.d.change,
            cronTimestamp: mv.d.cron,
            suppressed: mv.d.suppressed,
          }
        : null,
    );
  }
  for (const { id, d } of decisions) {
    if (conflicts.includes(id)) continue;
    evaluations.push({ monitorId: id, status: d.status, event: events.get(id) ?? null, cronTimestamp: d.cron });
  }
  return { evaluations, conflicts };
}

/**
 * A status move: the claim (compare-and-set on the status read and on no newer result having reached the
 * monitor's latest statuses since), the incident opened or resolved, the event; the last one returns the
 * event's id.
 */
export function moveWrites(
  db: Db,
  m: NonNullable<EvaluationState["monitor"]>,
  d: Extract<Decision, { kind: "move" }>,
  through: number,
  nowMs: number,
): Query[] {
  const { id: monitorId, workspaceId } = m;
  const { status: next, cron, change, witness, suppressed } = d;
  const claim = db
    .update(monitor)
    .set({ status: next, statusCronTimestamp: cron })
    .where(
      and(
        eq(monitor.id, monitorId),
        eq(monitor.status, m.status),
        sql`not exists (select 1 from ${monitorLocationStatus} where ${monitorLocationStatus.monitorId} = ${monitorId} and ${monitorLocationStatus.resultRowid} > ${through})`,
      ),
    )
    .returning({ id: monitor.id });
  // Every write below runs only if the claim left the monitor in the new state.
  const claimed = sql`exists (select 1 from ${monitor} where ${monitor.id} = ${monitorId} and ${monitor.status} = ${next} and ${monitor.statusCronTimestamp} = ${cron})`;
  const openIncident = sql`(select ${incident.id} from ${incident} where ${incident.monitorId} = ${monitorId} and ${incident.resolvedAt} is null)`;
  const incidentWrite =
    change === "error"
      ? db.insert(incident).select(
          db
            .select({
              id: sql`null`.as("id"),
              workspaceId: sql`${workspaceId}`.as("workspace_id"),
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
          workspaceId: sql`${workspaceId}`.as("workspace_id"),
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
  return [claim, ...(incidentWrite ? [incidentWrite] : []), eventInsert];
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
