import type { MonitorSla, SlaReport } from "@vigil/api-contract";
import type { Db } from "@vigil/db-schema";
import { NotFoundError, ValidationError } from "../errors";
import { addTally, COVERING, countedSlots, emptyTally, measure, type Tally, timeBudget, uptimeOf } from "../measure";

const DAY = 86_400_000;
export const MAX_REPORT_MONTHS = 13;

export interface ReportRange {
  from: number;
  to: number;
}

const issue = (path: string, message: string) => new ValidationError(`invalid report range: ${path} ${message}`, [{ path, message }]);

const parseDate = (raw: string, field: string): number => {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(raw)
    ? Date.parse(`${raw}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(raw)
      ? Date.parse(raw)
      : Number.NaN;
  if (!Number.isFinite(ms)) throw issue(field, "must be a date (YYYY-MM-DD, UTC) or an ISO 8601 time");
  return ms;
};

/**
 * The range a report covers: a calendar month (`month` = YYYY-MM, UTC) or `from`/`to` (to exclusive). The month
 * in progress ends now; a range starting in the future, or longer than 13 months, is refused naming the field.
 */
export function reportRange(q: { month?: string; from?: string; to?: string }, now = Date.now()): ReportRange {
  if (q.month !== undefined) {
    if (q.from !== undefined || q.to !== undefined) throw issue("month", "cannot be given with from/to");
    const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(q.month);
    if (!m) throw issue("month", "must be a calendar month as YYYY-MM");
    const from = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1);
    if (from > now) throw issue("month", "must not be in the future");
    return { from, to: Math.min(Date.UTC(Number(m[1]), Number(m[2]), 1), now) };
  }
  if (q.from === undefined) throw issue("from", "is required (or give month)");
  const from = parseDate(q.from, "from");
  const to = q.to === undefined ? now : parseDate(q.to, "to");
  if (from > now) throw issue("from", "must not be in the future");
  if (to > now) throw issue("to", "must not be in the future");
  if (to <= from) throw issue("to", "must be after from");
  const start = new Date(from);
  const limit = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + MAX_REPORT_MONTHS, start.getUTCDate()) + (from % DAY);
  if (to > limit) throw issue("to", `must be at most ${MAX_REPORT_MONTHS} months after from`);
  return { from, to };
}

// The report's shape is the API's (GET /v1/sla/…), declared in the contract.
export type { MonitorSla, SlaReport };

/** The report's figures of one monitor, or of a page's monitors together, from what was measured. */
function figures(t: Tally, target: number) {
  const checks = countedSlots(t);
  const b = timeBudget(t, target);
  return {
    checks,
    failed: t.downSlots,
    inMaintenance: t.maintenanceSlots,
    uptime: uptimeOf(t) ?? 1,
    errorBudget: {
      allowedFailures: checks * (1 - target),
      remaining: b.remaining,
      allowedMs: b.allowedMs,
      usedMs: b.usedMs,
      remainingMs: b.remainingMs,
    },
    upMs: t.upMs,
    degradedMs: t.degradedMs,
    downMs: t.downMs,
    noDataMs: t.noDataMs,
    maintenanceMs: t.maintenanceMs,
  };
}

async function summarize(
  db: Db,
  workspaceId: number,
  monitorIds: number[],
  range: ReportRange,
  target: number,
  nowMs: number,
): Promise<SlaReport> {
  const marks = monitorIds.map(() => "?").join(", ") || "null";
  const [names, windows, incidents] = await db.$client.batch(
    [
      {
        sql: `select id, name from monitor where workspace_id = ? and id in (${marks}) order by id`,
        args: [workspaceId, ...monitorIds],
      },
      {
        sql: `select distinct w.id, w.title, w.starts_at, w.ends_at from (${COVERING}) w join maintenance x on x.id = w.id
          where x.workspace_id = ? and w.monitor_id in (${marks}) and w.starts_at < ? and w.ends_at > ? order by w.starts_at`,
        args: [workspaceId, ...monitorIds, range.to, range.from],
      },
      {
        sql: `select i.id, coalesce(m.name, '') || coalesce(': ' || i.cause, '') as title, i.started_at, i.resolved_at from incident i join monitor m on m.id = i.monitor_id
          where i.workspace_id = ? and i.monitor_id in (${marks}) and i.started_at < ? and coalesce(i.resolved_at, ?) > ? order by i.started_at`,
        args: [workspaceId, ...monitorIds, range.to, range.to, range.from],
      },
    ],
    "read",
  );
  const ids = names!.rows.map((r) => Number(r.id));
  const measured = await measure(db, ids, { from: range.from, to: range.to, nowMs });
  const total = emptyTally();
  const monitors: MonitorSla[] = measured.map((m, i) => {
    addTally(total, m);
    return {
      monitorId: m.monitorId,
      monitorName: String(names!.rows[i]!.name),
      firstCheckAt: m.firstCheckAt,
      ...figures(m, target),
      measuredFrom: m.measuredFrom,
      measuredTo: m.measuredTo,
      measuredMs: m.measuredMs,
    };
  });
  const measuredTo = Math.max(range.from, Math.min(range.to, nowMs));
  return {
    ...range,
    target,
    ...figures(total, target),
    measuredFrom: monitors.reduce((a, m) => (m.measuredMs > 0 ? Math.min(a, m.measuredFrom) : a), measuredTo),
    measuredTo,
    measuredMs: monitors.reduce((a, m) => a + m.measuredMs, 0),
    monitors,
    maintenance: windows!.rows.map((w) => ({
      id: Number(w.id),
      title: String(w.title),
      startsAt: Number(w.starts_at),
      endsAt: Number(w.ends_at),
    })),
    incidents: incidents!.rows.map((i) => ({
      id: Number(i.id),
      kind: "monitor" as const,
      title: String(i.title),
      startedAt: Number(i.started_at),
      resolvedAt: i.resolved_at == null ? null : Number(i.resolved_at),
    })),
  };
}

/** One monitor's SLA over the range; another workspace's monitor is not found. */
export async function monitorSlaReport(
  db: Db,
  workspaceId: number,
  monitorId: number,
  range: ReportRange,
  target: number,
  nowMs = Date.now(),
): Promise<SlaReport> {
  const found = await db.$client.execute({
    sql: "select id from monitor where id = ? and workspace_id = ? and deleted_at is null",
    args: [monitorId, workspaceId],
  });
  if (found.rows.length === 0) throw new NotFoundError("monitor", monitorId);
  return summarize(db, workspaceId, [monitorId], range, target, nowMs);
}

/** A status page's SLA: its monitor-backed components together, with its status reports as incidents. */
export async function pageSlaReport(
  db: Db,
  workspaceId: number,
  pageId: number,
  range: ReportRange,
  target: number,
  nowMs = Date.now(),
): Promise<SlaReport> {
  const page = await db.$client.execute({
    sql: "select id from status_page where id = ? and workspace_id = ?",
    args: [pageId, workspaceId],
  });
  if (page.rows.length === 0) throw new NotFoundError("status page", pageId);
  const comps = await db.$client.execute({
    sql: "select distinct c.monitor_id from status_page_component c join monitor m on m.id = c.monitor_id where c.page_id = ? and m.deleted_at is null",
    args: [pageId],
  });
  const report = await summarize(
    db,
    workspaceId,
    comps.rows.map((r) => Number(r.monitor_id)),
    range,
    target,
    nowMs,
  );
  const reports = await db.$client.execute({
    sql: "select id, title, created_at, resolved_at from status_report where page_id = ? and created_at < ? and coalesce(resolved_at, ?) > ? order by created_at",
    args: [pageId, range.to, range.to, range.from],
  });
  report.incidents.push(
    ...reports.rows.map((r) => ({
      id: Number(r.id),
      kind: "status_report" as const,
      title: String(r.title),
      startedAt: Number(r.created_at),
      resolvedAt: r.resolved_at == null ? null : Number(r.resolved_at),
    })),
  );
  return report;
}

/** The objective as reports take it: a percent in (0, 100) as a fraction, without float noise (99.9 → 0.999). */
export const slaTarget = (percent: number) => Number((percent / 100).toFixed(10));

export interface SlaDowntime {
  /** The time with a verdict (up, degraded or down) within measured time; no data and maintenance left out. */
  countedMs: number;
  /** (1 − target) of the counted time. */
  allowedMs: number;
  /** The time the monitor was down. */
  usedMs: number;
  /** allowed − used; below 0 once the budget is spent. */
  remainingMs: number;
}

/** The error budget in time, as measured: nothing is extrapolated beyond the time counted. */
export function slaDowntime(r: Pick<SlaReport, "upMs" | "degradedMs" | "downMs" | "errorBudget">): SlaDowntime {
  return {
    countedMs: r.upMs + r.degradedMs + r.downMs,
    allowedMs: r.errorBudget.allowedMs,
    usedMs: r.errorBudget.usedMs,
    remainingMs: r.errorBudget.remainingMs,
  };
}

const cell = (v: string | number) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const pct = (x: number) => (x * 100).toFixed(4);
const secs = (ms: number) => (ms / 1000).toFixed(3);

/**
 * One line per monitor, then the total: what a spreadsheet needs to check the figures. Times in seconds
 * (to the millisecond): measured = up + degraded + down + no data + maintenance; for the total, summed.
 */
export function slaCsv(r: SlaReport): string {
  const head = [
    "monitor_id",
    "monitor",
    "from",
    "to",
    "checks",
    "failed",
    "in_maintenance",
    "uptime_percent",
    "target_percent",
    "allowed_failures",
    "budget_remaining_percent",
    "measured_from",
    "measured_to",
    "measured_s",
    "up_s",
    "degraded_s",
    "down_s",
    "no_data_s",
    "maintenance_s",
    "allowed_downtime_s",
    "downtime_used_s",
  ];
  const line = (
    id: string | number,
    name: string,
    x: Omit<SlaReport, "from" | "to" | "target" | "monitors" | "maintenance" | "incidents">,
  ) =>
    [
      id,
      name,
      new Date(r.from).toISOString(),
      new Date(r.to).toISOString(),
      x.checks,
      x.failed,
      x.inMaintenance,
      pct(x.uptime),
      pct(r.target),
      x.errorBudget.allowedFailures.toFixed(2),
      pct(x.errorBudget.remaining),
      new Date(x.measuredFrom).toISOString(),
      new Date(x.measuredTo).toISOString(),
      ...[x.measuredMs, x.upMs, x.degradedMs, x.downMs, x.noDataMs, x.maintenanceMs, x.errorBudget.allowedMs, x.errorBudget.usedMs].map(
        secs,
      ),
    ]
      .map(cell)
      .join(",");
  return `${[head.join(","), ...r.monitors.map((m) => line(m.monitorId, m.monitorName, m)), line("", "total", r)].join("\n")}\n`;
}
