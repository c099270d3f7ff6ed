// Reports and maintenance in one file: both are announcements on a page with the same ownership, audit and promotion rules.
import {
  MaintenanceInput,
  MaintenancePatch,
  PromoteIncidentInput,
  StatusReportInput,
  StatusReportPatch,
  StatusReportUpdateInput,
} from "@vigil/api-contract";
import {
  type Conn,
  type Db,
  incident,
  maintenance,
  maintenanceComponent,
  maintenanceMonitor,
  monitor,
  statusPageComponent,
  statusReport,
  statusReportComponent,
  statusReportUpdate,
} from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, desc, eq, gte, inArray, isNull, or } from "drizzle-orm";
import { getWorkspace, limitsOf } from "../access";
import { type Actor, audited } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";
import { pageRow } from "./common";

type ReportRow = typeof statusReport.$inferSelect;
type UpdateRow = typeof statusReportUpdate.$inferSelect;
type MaintenanceRow = typeof maintenance.$inferSelect;
export type ReportImpact = (typeof statusReportComponent.$inferSelect)["impact"];

export interface StatusReportView extends ReportRow {
  /** Newest first. */
  updates: UpdateRow[];
  components: { componentId: number; impact: ReportImpact }[];
}

async function assertComponentsOnPage(tx: Conn, pageId: number, ids: number[], path = "components") {
  if (ids.length === 0) return;
  const rows = await tx
    .select({ id: statusPageComponent.id })
    .from(statusPageComponent)
    .where(and(eq(statusPageComponent.pageId, pageId), inArray(statusPageComponent.id, ids)));
  const ok = new Set(rows.map((r) => r.id));
  const bad = ids.findIndex((id) => !ok.has(id));
  if (bad >= 0)
    throw new ValidationError(`${path}.${bad} no component ${ids[bad]} on this page`, [
      { path: `${path}.${bad}`, message: `no component ${ids[bad]} on this page` },
    ]);
}

async function reportRow(tx: Conn, workspaceId: number, id: number): Promise<ReportRow> {
  const [row] = await tx
    .select()
    .from(statusReport)
    .where(and(eq(statusReport.id, id), eq(statusReport.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("status report", id);
  return row;
}

async function reportViews(db: Conn, rows: ReportRow[]): Promise<StatusReportView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [updates, comps] = await Promise.all([
    db
      .select()
      .from(statusReportUpdate)
      .where(inArray(statusReportUpdate.reportId, ids))
      .orderBy(desc(statusReportUpdate.date), desc(statusReportUpdate.id)),
    db.select().from(statusReportComponent).where(inArray(statusReportComponent.reportId, ids)),
  ]);
  return rows.map((r) => ({
    ...r,
    updates: updates.filter((u) => u.reportId === r.id),
    components: comps.filter((c) => c.reportId === r.id).map((c) => ({ componentId: c.componentId, impact: c.impact })),
  }));
}

function dedupe<T extends { componentId: number }>(list: T[]): T[] {
  const seen = new Map<number, T>();
  for (const c of list) seen.set(c.componentId, c);
  return [...seen.values()];
}

export async function createStatusReport(
  db: Db,
  workspaceId: number,
  raw: unknown,
  actor: Actor,
  nowMs = Date.now(),
): Promise<StatusReportView> {
  const input = parseInput(StatusReportInput, raw, "status report");
  const date = input.date ?? nowMs;
  const components = dedupe(input.components);
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    await pageRow(tx, workspaceId, input.pageId);
    await assertComponentsOnPage(
      tx,
      input.pageId,
      components.map((c) => c.componentId),
    );
    const [report] = await tx
      .insert(statusReport)
      .values({
        workspaceId,
        pageId: input.pageId,
        title: input.title,
        status: input.status,
        resolvedAt: input.status === "resolved" ? date : null,
        createdAt: date,
        updatedAt: date,
      })
      .returning();
    await tx.insert(statusReportUpdate).values({ reportId: report!.id, status: input.status, message: input.message, date });
    if (components.length > 0) await tx.insert(statusReportComponent).values(components.map((c) => ({ reportId: report!.id, ...c })));
    await audit({ action: "status_report.create", targetType: "status_report", targetId: report!.id });
    return report!;
  });
  return (await reportViews(db, [row]))[0]!;
}

export async function addStatusReportUpdate(
  db: Db,
  workspaceId: number,
  reportId: number,
  raw: unknown,
  actor: Actor,
  nowMs = Date.now(),
): Promise<StatusReportView> {
  const input = parseInput(StatusReportUpdateInput, raw, "update");
  const date = input.date ?? nowMs;
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    await reportRow(tx, workspaceId, reportId);
    await tx.insert(statusReportUpdate).values({ reportId, status: input.status, message: input.message, date });
    // The report takes the state of its newest update; an update after "resolved" reopens it.
    const [latest] = await tx
      .select()
      .from(statusReportUpdate)
      .where(eq(statusReportUpdate.reportId, reportId))
      .orderBy(desc(statusReportUpdate.date), desc(statusReportUpdate.id))
      .limit(1);
    const [updated] = await tx
      .update(statusReport)
      .set({ status: latest!.status, resolvedAt: latest!.status === "resolved" ? latest!.date : null, updatedAt: nowMs })
      .where(eq(statusReport.id, reportId))
      .returning();
    await audit({
      action: "status_report.update",
      targetType: "status_report",
      targetId: reportId,
      metadata: { status: input.status },
    });
    return updated!;
  });
  return (await reportViews(db, [row]))[0]!;
}

export async function updateStatusReport(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<StatusReportView> {
  const patch = parseInput(StatusReportPatch, raw, "status report");
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const current = await reportRow(tx, workspaceId, id);
    if (patch.components) {
      const components = dedupe(patch.components);
      if (current.pageId === null)
        throw new ValidationError("components the report has no page", [{ path: "components", message: "the report has no page" }]);
      await assertComponentsOnPage(
        tx,
        current.pageId,
        components.map((c) => c.componentId),
      );
      await tx.delete(statusReportComponent).where(eq(statusReportComponent.reportId, id));
      if (components.length > 0) await tx.insert(statusReportComponent).values(components.map((c) => ({ reportId: id, ...c })));
    }
    const [updated] = await tx
      .update(statusReport)
      .set({ ...(patch.title ? { title: patch.title } : {}), updatedAt: Date.now() })
      .where(eq(statusReport.id, id))
      .returning();
    await audit({
      action: "status_report.edit",
      targetType: "status_report",
      targetId: id,
      metadata: { fields: Object.keys(patch) },
    });
    return updated!;
  });
  return (await reportViews(db, [row]))[0]!;
}

export async function deleteStatusReport(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await reportRow(tx, workspaceId, id);
    await tx.delete(statusReport).where(eq(statusReport.id, id));
    await audit({ action: "status_report.delete", targetType: "status_report", targetId: id });
  });
}

export async function getStatusReport(db: Db, workspaceId: number, id: number): Promise<StatusReportView> {
  return (await reportViews(db, [await reportRow(db, workspaceId, id)]))[0]!;
}

export async function listStatusReports(
  db: Db,
  workspaceId: number,
  opts: { pageId?: number; open?: boolean; limit?: number } = {},
): Promise<StatusReportView[]> {
  const rows = await db
    .select()
    .from(statusReport)
    .where(
      and(
        eq(statusReport.workspaceId, workspaceId),
        opts.pageId === undefined ? undefined : eq(statusReport.pageId, opts.pageId),
        opts.open ? isNull(statusReport.resolvedAt) : undefined,
      ),
    )
    .orderBy(desc(statusReport.createdAt), desc(statusReport.id))
    .limit(Math.min(Math.max(opts.limit ?? 100, 1), 1000));
  return reportViews(db, rows);
}

/**
 * Turns a monitor incident into a public report on `pageId`: the page's components linked to the
 * incident's monitor are affected. One report per incident.
 */
export async function promoteIncident(
  db: Db,
  workspaceId: number,
  incidentId: number,
  raw: unknown,
  actor: Actor,
  nowMs = Date.now(),
): Promise<StatusReportView> {
  const input = parseInput(PromoteIncidentInput, raw, "promotion");
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const [found] = await tx
      .select({ incident, monitorName: monitor.name })
      .from(incident)
      .innerJoin(monitor, eq(monitor.id, incident.monitorId))
      .where(and(eq(incident.id, incidentId), eq(incident.workspaceId, workspaceId)));
    if (!found) throw new NotFoundError("incident", incidentId);
    await pageRow(tx, workspaceId, input.pageId);
    const [already] = await tx.select({ id: statusReport.id }).from(statusReport).where(eq(statusReport.incidentId, incidentId));
    if (already) throw new ConflictError(`incident ${incidentId} is already status report ${already.id}`);
    const components = await tx
      .select({ id: statusPageComponent.id })
      .from(statusPageComponent)
      .where(and(eq(statusPageComponent.pageId, input.pageId), eq(statusPageComponent.monitorId, found.incident.monitorId)));
    const name = found.monitorName || `Monitor ${found.incident.monitorId}`;
    const date = Math.max(found.incident.startedAt, nowMs);
    const [report] = await tx
      .insert(statusReport)
      .values({
        workspaceId,
        pageId: input.pageId,
        title: input.title ?? `${name} is unavailable`,
        status: "investigating",
        incidentId,
        createdAt: date,
        updatedAt: date,
      })
      .returning();
    await tx.insert(statusReportUpdate).values({
      reportId: report!.id,
      status: "investigating",
      message: input.message ?? `We are investigating a problem with ${name}.`,
      date,
    });
    if (components.length > 0)
      await tx
        .insert(statusReportComponent)
        .values(components.map((c) => ({ reportId: report!.id, componentId: c.id, impact: input.impact })));
    await audit({
      action: "status_report.promote",
      targetType: "status_report",
      targetId: report!.id,
      metadata: { incidentId },
    });
    return report!;
  });
  return (await reportViews(db, [row]))[0]!;
}

// ── Maintenance ──────────────────────────────────────────────────────────────

export interface MaintenanceView extends MaintenanceRow {
  monitors: number[];
  components: number[];
}

async function maintenanceViews(db: Conn, rows: MaintenanceRow[]): Promise<MaintenanceView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [mons, comps] = await Promise.all([
    db.select().from(maintenanceMonitor).where(inArray(maintenanceMonitor.maintenanceId, ids)),
    db.select().from(maintenanceComponent).where(inArray(maintenanceComponent.maintenanceId, ids)),
  ]);
  return rows.map((r) => ({
    ...r,
    monitors: mons.filter((m) => m.maintenanceId === r.id).map((m) => m.monitorId),
    components: comps.filter((c) => c.maintenanceId === r.id).map((c) => c.componentId),
  }));
}

async function setMaintenanceTargets(
  tx: Conn,
  workspaceId: number,
  id: number,
  pageId: number | null,
  monitors: number[],
  components: number[],
) {
  const mons = [...new Set(monitors)];
  const comps = [...new Set(components)];
  if (mons.length > 0) {
    const found = await tx
      .select({ id: monitor.id })
      .from(monitor)
      .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt), inArray(monitor.id, mons)));
    const ok = new Set(found.map((f) => f.id));
    const bad = mons.findIndex((m) => !ok.has(m));
    if (bad >= 0)
      throw new ValidationError(`monitors.${bad} no monitor ${mons[bad]}`, [
        { path: `monitors.${bad}`, message: `no monitor ${mons[bad]} in this workspace` },
      ]);
  }
  if (comps.length > 0) {
    if (pageId === null)
      throw new ValidationError("components need a pageId", [{ path: "components", message: "components need a pageId" }]);
    await assertComponentsOnPage(tx, pageId, comps);
  }
  await tx.delete(maintenanceMonitor).where(eq(maintenanceMonitor.maintenanceId, id));
  await tx.delete(maintenanceComponent).where(eq(maintenanceComponent.maintenanceId, id));
  if (mons.length > 0) await tx.insert(maintenanceMonitor).values(mons.map((monitorId) => ({ maintenanceId: id, monitorId })));
  if (comps.length > 0) await tx.insert(maintenanceComponent).values(comps.map((componentId) => ({ maintenanceId: id, componentId })));
}

export async function createMaintenance(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<MaintenanceView> {
  const input = parseInput(MaintenanceInput, raw, "maintenance");
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const ws = await getWorkspace(tx, workspaceId);
    assertWithinLimits(limitsOf(ws).limits, [{ kind: "feature", key: "maintenance" }]);
    if (input.pageId !== null) await pageRow(tx, workspaceId, input.pageId);
    const [created] = await tx
      .insert(maintenance)
      .values({
        workspaceId,
        pageId: input.pageId,
        title: input.title,
        message: input.message,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
      })
      .returning();
    await setMaintenanceTargets(tx, workspaceId, created!.id, input.pageId, input.monitors, input.components);
    await audit({ action: "maintenance.create", targetType: "maintenance", targetId: created!.id });
    return created!;
  });
  return (await maintenanceViews(db, [row]))[0]!;
}

async function maintenanceRow(tx: Conn, workspaceId: number, id: number): Promise<MaintenanceRow> {
  const [row] = await tx
    .select()
    .from(maintenance)
    .where(and(eq(maintenance.id, id), eq(maintenance.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("maintenance", id);
  return row;
}

/** A patch is merged over the stored window and validated whole, so the same rules hold. */
export async function updateMaintenance(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<MaintenanceView> {
  const patch = parseInput(MaintenancePatch, raw, "maintenance");
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const current = (await maintenanceViews(tx, [await maintenanceRow(tx, workspaceId, id)]))[0]!;
    const merged = parseInput(
      MaintenanceInput,
      {
        pageId: current.pageId,
        title: current.title,
        message: current.message,
        startsAt: current.startsAt,
        endsAt: current.endsAt,
        monitors: current.monitors,
        components: current.components,
        ...patch,
      },
      "maintenance",
    );
    if (merged.pageId !== null) await pageRow(tx, workspaceId, merged.pageId);
    const [updated] = await tx
      .update(maintenance)
      .set({ pageId: merged.pageId, title: merged.title, message: merged.message, startsAt: merged.startsAt, endsAt: merged.endsAt })
      .where(eq(maintenance.id, id))
      .returning();
    await setMaintenanceTargets(tx, workspaceId, id, merged.pageId, merged.monitors, merged.components);
    await audit({ action: "maintenance.update", targetType: "maintenance", targetId: id });
    return updated!;
  });
  return (await maintenanceViews(db, [row]))[0]!;
}

export async function deleteMaintenance(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await maintenanceRow(tx, workspaceId, id);
    await tx.delete(maintenance).where(eq(maintenance.id, id));
    await audit({ action: "maintenance.delete", targetType: "maintenance", targetId: id });
  });
}

export async function listMaintenances(db: Db, workspaceId: number, opts: { pageId?: number } = {}): Promise<MaintenanceView[]> {
  const rows = await db
    .select()
    .from(maintenance)
    .where(and(eq(maintenance.workspaceId, workspaceId), opts.pageId === undefined ? undefined : eq(maintenance.pageId, opts.pageId)))
    .orderBy(desc(maintenance.startsAt));
  return maintenanceViews(db, rows);
}

export async function getMaintenance(db: Db, workspaceId: number, id: number): Promise<MaintenanceView> {
  return (await maintenanceViews(db, [await maintenanceRow(db, workspaceId, id)]))[0]!;
}

export interface PromotableIncident {
  id: number;
  monitorId: number;
  monitorName: string;
  startedAt: number;
  resolvedAt: number | null;
  cause: string | null;
  /** The status report it was promoted to, if any. */
  reportId: number | null;
}

/** The workspace's open monitor incidents and those of the last `sinceMs`, newest first, with their report if promoted. */
export async function listPromotableIncidents(
  db: Db,
  workspaceId: number,
  nowMs = Date.now(),
  sinceMs = 7 * 86_400_000,
): Promise<PromotableIncident[]> {
  const rows = await db
    .select({ incident, monitorName: monitor.name, reportId: statusReport.id })
    .from(incident)
    .innerJoin(monitor, eq(monitor.id, incident.monitorId))
    .leftJoin(statusReport, eq(statusReport.incidentId, incident.id))
    .where(and(eq(incident.workspaceId, workspaceId), or(isNull(incident.resolvedAt), gte(incident.startedAt, nowMs - sinceMs))))
    .orderBy(desc(incident.startedAt))
    .limit(50);
  return rows.map((r) => ({
    id: r.incident.id,
    monitorId: r.incident.monitorId,
    monitorName: r.monitorName || `Monitor ${r.incident.monitorId}`,
    startedAt: r.incident.startedAt,
    resolvedAt: r.incident.resolvedAt,
    cause: r.incident.cause,
    reportId: r.reportId,
  }));
}
