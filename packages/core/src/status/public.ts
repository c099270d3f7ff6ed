// The public view of a status page in one file: page, report, history and summary readers share one visibility rule.
import type { Analytics } from "@vigil/analytics";
import { PublicPageMeta } from "@vigil/api-contract";
import {
  type Db,
  maintenance,
  maintenanceComponent,
  maintenanceMonitor,
  monitor,
  monitorLocationStatus,
  statusPage,
  statusPageComponent,
  statusPageGroup,
  statusReport,
  statusReportComponent,
  statusReportUpdate,
  workspace,
} from "@vigil/db-schema";
import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { limitsOf } from "../access";
import { countedSlots, measuredDays, uptimeOf } from "../measure";
import type { PageRow } from "./common";
import { toPageView } from "./pages";

/** The public site's view of a page: one database round trip and one analytics query, whatever the number of components. */

export const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 90;
/** A monitor-linked component whose monitor has not reported for this long says automated monitoring is off. */
export const MONITORING_STALE_MS = DAY_MS;

export type ComponentState = "operational" | "degraded" | "partial_outage" | "major_outage" | "maintenance" | "monitoring_off";
export type OverallState = "operational" | "degraded" | "partial_outage" | "major_outage" | "maintenance";
type Impact = "degraded" | "partial_outage" | "major_outage";

/** Worse is higher; "monitoring off" says nothing about the service, so it counts as operational. */
const SEVERITY: Record<ComponentState, number> = {
  monitoring_off: 0,
  operational: 0,
  maintenance: 1,
  degraded: 2,
  partial_outage: 3,
  major_outage: 4,
};
export const worse = <T extends ComponentState>(a: T, b: T): T => (SEVERITY[b] > SEVERITY[a] ? b : a);

export interface DayIncident {
  id: number;
  title: string;
  impact: Impact;
}

export interface UptimeDay {
  /** Day start (UTC), ms. */
  day: number;
  /** Share of the day's counted time not down (core's `measure`), 0..1; null when nothing was measured ("no data"). */
  uptime: number | null;
  /** Slots with a verdict (the quorum of their locations' results). */
  checks: number;
  /** Slots whose verdict was down. */
  errors: number;
  /** The part of the day inside measured time (from the first check to now). */
  measuredMs: number;
  downMs: number;
  /** Measured time of the day without any result: neither up nor down. */
  noDataMs: number;
  /** Reports that touched this component that day. */
  incidents: DayIncident[];
  maintenance: boolean;
  /** What the day's bar shows. */
  level: "none" | "operational" | "degraded" | "partial_outage" | "major_outage" | "maintenance";
}

export interface PublicComponent {
  id: number;
  name: string;
  description: string;
  groupId: number | null;
  monitored: boolean;
  state: ComponentState;
  /** Over the shown window's measured time, 0..1; null without checks (static components, or no data). */
  uptime: number | null;
  /** Measured time of the window with no result (static components: 0). */
  noDataMs: number;
  days: UptimeDay[];
}

export interface PublicGroup {
  id: number | null;
  name: string | null;
  state: ComponentState;
  components: PublicComponent[];
}

export interface PublicUpdate {
  id: number;
  status: "investigating" | "identified" | "monitoring" | "resolved";
  message: string;
  date: number;
}

export interface PublicReport {
  id: number;
  title: string;
  status: PublicUpdate["status"];
  createdAt: number;
  updatedAt: number;
  resolvedAt: number | null;
  components: { id: number; name: string; impact: Impact }[];
  /** Newest first. */
  updates: PublicUpdate[];
}

/** A report as visitors see it: its components as given, its own updates in the order given. */
function publicReport(
  r: Omit<PublicReport, "components" | "updates">,
  components: PublicReport["components"],
  updates: (PublicUpdate & { reportId: number })[],
): PublicReport {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    resolvedAt: r.resolvedAt,
    components,
    updates: updates.filter((u) => u.reportId === r.id).map((u) => ({ id: u.id, status: u.status, message: u.message, date: u.date })),
  };
}

export interface PublicMaintenance {
  id: number;
  title: string;
  message: string;
  startsAt: number;
  endsAt: number;
  active: boolean;
  components: { id: number; name: string }[];
}

// What a visitor sees of the page itself is the contract's: a field added there reaches the page's shell.
export type { PublicPageMeta };

export interface PublicPage {
  page: PublicPageMeta;
  now: number;
  overall: OverallState;
  groups: PublicGroup[];
  components: PublicComponent[];
  activeReports: PublicReport[];
  /** Resolved within the shown window, newest first. */
  recentReports: PublicReport[];
  maintenances: PublicMaintenance[];
}

/** The page a visitor asked for, by slug or custom domain; null when none is published there. */
export async function findPublicPage(
  db: Db,
  by: { slug: string } | { host: string },
): Promise<(PageRow & { subscribable: boolean }) | null> {
  const where =
    "slug" in by ? eq(statusPage.slug, by.slug.toLowerCase()) : eq(statusPage.customDomain, by.host.toLowerCase().replace(/:\d+$/, ""));
  const [row] = await db
    .select({ page: statusPage, ws: workspace })
    .from(statusPage)
    .innerJoin(workspace, eq(workspace.id, statusPage.workspaceId))
    // A custom domain answers only for the page that proved it; an unproven claim is no page at all.
    .where(and(where, eq(statusPage.published, true), "host" in by ? isNotNull(statusPage.customDomainVerifiedAt) : undefined));
  if (!row) return null;
  return { ...row.page, subscribable: limitsOf(row.ws).limits["status-subscribers"] };
}

const PUBLIC_KEYS = Object.keys(PublicPageMeta.shape) as (keyof PublicPageMeta)[];
export const pageMeta = (p: PageRow & { subscribable: boolean }): PublicPageMeta => {
  const shown: Record<string, unknown> = { ...toPageView(p), subscribable: p.subscribable };
  // Nothing public points at a domain the page has not proven.
  shown.customDomain = p.customDomainVerifiedAt !== null ? p.customDomain : null;
  return Object.fromEntries(PUBLIC_KEYS.map((k) => [k, shown[k]])) as PublicPageMeta;
};

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

function dayLevel(d: Omit<UptimeDay, "level">): UptimeDay["level"] {
  let level: UptimeDay["level"] = d.uptime === null ? "none" : "operational";
  if (d.uptime !== null && d.checks > 0) {
    if (d.uptime < 0.95) level = "major_outage";
    else if (d.uptime < 0.99) level = "partial_outage";
    else if (d.uptime < 0.999) level = "degraded";
  }
  for (const i of d.incidents) if (level === "none" || SEVERITY[i.impact] > SEVERITY[level]) level = i.impact;
  if (d.maintenance && (level === "none" || level === "operational")) level = "maintenance";
  return level;
}

/** Everything a status page renders, `days` days of bars (≤ 90). */
export async function loadPublicPage(
  db: Db,
  // Bars and uptime now come from measured slots in libSQL (every result within retention): the same figures as the SLA.
  _analytics: Analytics,
  page: PageRow & { subscribable: boolean },
  opts: { now?: number; days?: number } = {},
): Promise<PublicPage> {
  const now = opts.now ?? Date.now();
  const days = Math.min(Math.max(opts.days ?? HISTORY_DAYS, 1), HISTORY_DAYS);
  const from = dayStart(now) - (days - 1) * DAY_MS;
  const pageId = page.id;

  const reportsInWindow = or(isNull(statusReport.resolvedAt), gte(statusReport.resolvedAt, from));
  const reportIds = db
    .select({ id: statusReport.id })
    .from(statusReport)
    .where(and(eq(statusReport.pageId, pageId), reportsInWindow));
  const windowsShown = and(eq(maintenance.pageId, pageId), gt(maintenance.endsAt, from));
  const windowIds = db.select({ id: maintenance.id }).from(maintenance).where(windowsShown);

  const [groups, components, reports, updates, reportComponents, windows, windowMonitors, windowComponents] = await db.batch([
    db.select().from(statusPageGroup).where(eq(statusPageGroup.pageId, pageId)).orderBy(statusPageGroup.order, statusPageGroup.id),
    db
      .select({
        c: statusPageComponent,
        monitorStatus: monitor.status,
        monitorActive: sql<number | null>`${monitor.active} and ${monitor.deletedAt} is null`,
        lastReport: sql<
          number | null
        >`(select max(${monitorLocationStatus.cronTimestamp}) from ${monitorLocationStatus} where ${monitorLocationStatus.monitorId} = ${statusPageComponent.monitorId})`,
      })
      .from(statusPageComponent)
      .leftJoin(monitor, eq(monitor.id, statusPageComponent.monitorId))
      .where(eq(statusPageComponent.pageId, pageId))
      .orderBy(statusPageComponent.order, statusPageComponent.id),
    db
      .select()
      .from(statusReport)
      .where(and(eq(statusReport.pageId, pageId), reportsInWindow))
      .orderBy(desc(statusReport.createdAt), desc(statusReport.id)),
    db
      .select()
      .from(statusReportUpdate)
      .where(inArray(statusReportUpdate.reportId, reportIds))
      .orderBy(desc(statusReportUpdate.date), desc(statusReportUpdate.id)),
    db.select().from(statusReportComponent).where(inArray(statusReportComponent.reportId, reportIds)),
    db.select().from(maintenance).where(windowsShown).orderBy(maintenance.startsAt),
    db.select().from(maintenanceMonitor).where(inArray(maintenanceMonitor.maintenanceId, windowIds)),
    db.select().from(maintenanceComponent).where(inArray(maintenanceComponent.maintenanceId, windowIds)),
  ]);

  const monitorIds = [...new Set(components.map((c) => c.c.monitorId).filter((id): id is number => id !== null))];
  const series = await measuredDays(db, monitorIds, from, now);

  const names = new Map(components.map((c) => [c.c.id, c.c.name]));
  const toReport = (r: (typeof reports)[number]): PublicReport =>
    publicReport(
      r,
      reportComponents
        .filter((rc) => rc.reportId === r.id && names.has(rc.componentId))
        .map((rc) => ({ id: rc.componentId, name: names.get(rc.componentId)!, impact: rc.impact })),
      updates,
    );
  const allReports = reports.map(toReport);
  const activeReports = allReports.filter((r) => r.resolvedAt === null);
  const recentReports = allReports.filter((r) => r.resolvedAt !== null);

  // Which components each window covers: those listed, and those linked to its monitors.
  const byMonitor = new Map<number, number[]>();
  for (const c of components) if (c.c.monitorId !== null) byMonitor.set(c.c.monitorId, [...(byMonitor.get(c.c.monitorId) ?? []), c.c.id]);
  const covered = new Map<number, Set<number>>(windows.map((w) => [w.id, new Set<number>()]));
  for (const wc of windowComponents) covered.get(wc.maintenanceId)?.add(wc.componentId);
  for (const wm of windowMonitors) for (const id of byMonitor.get(wm.monitorId) ?? []) covered.get(wm.maintenanceId)?.add(id);
  const maintenances: PublicMaintenance[] = windows
    .filter((w) => w.endsAt > now)
    .map((w) => ({
      id: w.id,
      title: w.title,
      message: w.message,
      startsAt: w.startsAt,
      endsAt: w.endsAt,
      active: w.startsAt <= now,
      components: [...(covered.get(w.id) ?? [])].filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
    }));
  const activeWindows = windows.filter((w) => w.startsAt <= now && now < w.endsAt);

  const out: PublicComponent[] = components.map(({ c, monitorStatus, monitorActive, lastReport }) => {
    const monitored = c.monitorId !== null && monitorStatus !== null;
    let state: ComponentState;
    if (monitored) {
      const off = !monitorActive || lastReport === null || now - Number(lastReport) > MONITORING_STALE_MS;
      state = off
        ? "monitoring_off"
        : monitorStatus === "error"
          ? "major_outage"
          : monitorStatus === "degraded"
            ? "degraded"
            : "operational";
    } else state = c.staticStatus;
    const inMaintenance = activeWindows.some((w) => covered.get(w.id)?.has(c.id));
    // During maintenance a failing check is expected: the component says maintenance unless a report says worse.
    if (inMaintenance) state = "maintenance";
    for (const r of activeReports) for (const rc of r.components) if (rc.id === c.id) state = worse<ComponentState>(state, rc.impact);

    const m = c.monitorId !== null ? series.get(c.monitorId) : undefined;
    const dayList: UptimeDay[] = [];
    for (let i = 0; i < days; i++) {
      const day = from + i * DAY_MS;
      const end = day + DAY_MS;
      const b = m?.buckets[i];
      const incidents = allReports
        .filter((r) => r.createdAt < end && (r.resolvedAt === null || r.resolvedAt >= day))
        .flatMap((r) => r.components.filter((rc) => rc.id === c.id).map((rc) => ({ id: r.id, title: r.title, impact: rc.impact })));
      const maint = windows.some((w) => w.startsAt < end && w.endsAt > day && w.startsAt <= now && covered.get(w.id)?.has(c.id));
      const d = {
        day,
        uptime: b ? uptimeOf(b) : null,
        checks: b ? countedSlots(b) : 0,
        errors: b?.downSlots ?? 0,
        measuredMs: b?.measuredMs ?? 0,
        downMs: b?.downMs ?? 0,
        noDataMs: b?.noDataMs ?? 0,
        incidents,
        maintenance: maint,
      };
      dayList.push({ ...d, level: dayLevel(d) });
    }
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      groupId: c.groupId,
      monitored,
      state,
      uptime: m ? uptimeOf(m) : null,
      noDataMs: m?.noDataMs ?? 0,
      days: dayList,
    };
  });

  const groupsOut: PublicGroup[] = [];
  const ungrouped = out.filter((c) => c.groupId === null || !groups.some((g) => g.id === c.groupId));
  if (ungrouped.length > 0)
    groupsOut.push({
      id: null,
      name: null,
      state: ungrouped.reduce<ComponentState>((s, c) => worse(s, c.state), "operational"),
      components: ungrouped,
    });
  for (const g of groups) {
    const list = out.filter((c) => c.groupId === g.id);
    if (list.length > 0)
      groupsOut.push({
        id: g.id,
        name: g.name,
        state: list.reduce<ComponentState>((s, c) => worse(s, c.state), "operational"),
        components: list,
      });
  }

  let overall: ComponentState = out.reduce<ComponentState>((s, c) => worse(s, c.state), "operational");
  for (const r of activeReports) for (const rc of r.components) overall = worse<ComponentState>(overall, rc.impact);
  // A report naming no component still means something is wrong.
  if (activeReports.some((r) => r.components.length === 0)) overall = worse<ComponentState>(overall, "degraded");
  if (activeWindows.length > 0) overall = worse<ComponentState>(overall, "maintenance");

  return {
    page: pageMeta(page),
    now,
    overall: overall === "monitoring_off" ? "operational" : overall,
    groups: groupsOut,
    components: out,
    activeReports,
    recentReports,
    maintenances,
  };
}

/** One report of the page with its timeline, or null (another page's report is null too). */
export async function loadPublicReport(db: Db, pageId: number, reportId: number): Promise<PublicReport | null> {
  const [report] = await db
    .select()
    .from(statusReport)
    .where(and(eq(statusReport.id, reportId), eq(statusReport.pageId, pageId)));
  if (!report) return null;
  const [updates, comps] = await db.batch([
    db
      .select()
      .from(statusReportUpdate)
      .where(eq(statusReportUpdate.reportId, reportId))
      .orderBy(desc(statusReportUpdate.date), desc(statusReportUpdate.id)),
    db
      .select({ id: statusReportComponent.componentId, impact: statusReportComponent.impact, name: statusPageComponent.name })
      .from(statusReportComponent)
      .innerJoin(statusPageComponent, eq(statusPageComponent.id, statusReportComponent.componentId))
      .where(eq(statusReportComponent.reportId, reportId)),
  ]);
  return {
    id: report.id,
    title: report.title,
    status: report.status,
    createdAt: report.createdAt,
    updatedAt: report.updatedAt,
    resolvedAt: report.resolvedAt,
    components: comps,
    updates: updates.map((u) => ({ id: u.id, status: u.status, message: u.message, date: u.date })),
  };
}

/** The page's reports, newest first, with their timelines: history page and feeds. */
export async function loadReportHistory(db: Db, pageId: number, opts: { limit?: number; before?: number } = {}): Promise<PublicReport[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const where = and(eq(statusReport.pageId, pageId), opts.before ? lt(statusReport.createdAt, opts.before) : undefined);
  const ids = db
    .select({ id: statusReport.id })
    .from(statusReport)
    .where(where)
    .orderBy(desc(statusReport.createdAt), desc(statusReport.id))
    .limit(limit);
  const [reports, updates, comps] = await db.batch([
    db.select().from(statusReport).where(where).orderBy(desc(statusReport.createdAt), desc(statusReport.id)).limit(limit),
    db
      .select()
      .from(statusReportUpdate)
      .where(inArray(statusReportUpdate.reportId, ids))
      .orderBy(desc(statusReportUpdate.date), desc(statusReportUpdate.id)),
    db
      .select({
        reportId: statusReportComponent.reportId,
        id: statusReportComponent.componentId,
        impact: statusReportComponent.impact,
        name: statusPageComponent.name,
      })
      .from(statusReportComponent)
      .innerJoin(statusPageComponent, eq(statusPageComponent.id, statusReportComponent.componentId))
      .where(inArray(statusReportComponent.reportId, ids)),
  ]);
  return reports.map((r) =>
    publicReport(
      r,
      comps.filter((c) => c.reportId === r.id).map(({ id, impact, name }) => ({ id, impact, name })),
      updates,
    ),
  );
}

/** The page's maintenance windows, newest first (feeds and the history page). */
export async function loadMaintenanceHistory(
  db: Db,
  pageId: number,
  limit = 50,
): Promise<Omit<PublicMaintenance, "active" | "components">[]> {
  const rows = await db
    .select({
      id: maintenance.id,
      title: maintenance.title,
      message: maintenance.message,
      startsAt: maintenance.startsAt,
      endsAt: maintenance.endsAt,
    })
    .from(maintenance)
    .where(eq(maintenance.pageId, pageId))
    .orderBy(desc(maintenance.startsAt))
    .limit(Math.min(Math.max(limit, 1), 200));
  return rows;
}

/** Slug and title of a page, for the pages that answer mail links. */
export async function pageSummary(db: Db, pageId: number): Promise<{ slug: string; title: string } | null> {
  const [p] = await db.select({ slug: statusPage.slug, title: statusPage.title }).from(statusPage).where(eq(statusPage.id, pageId));
  return p ?? null;
}
