import type { MonitorSla, SlaReport } from "@vigil/api-contract";
import type { Db } from "@vigil/db-schema";
import { NotFoundError, ValidationError } from "../errors";

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

const budget = (checks: number, failed: number, target: number) => {
  const allowedFailures = checks * (1 - target);
  return { allowedFailures, remaining: allowedFailures === 0 ? (failed === 0 ? 1 : -failed) : 1 - failed / allowedFailures };
};

/** Maintenance windows covering a monitor: linked to it, or to a page component showing it. */
const COVERING = `select w.id, w.title, w.starts_at, w.ends_at, mm.monitor_id from maintenance w join maintenance_monitor mm on mm.maintenance_id = w.id
  union select w.id, w.title, w.starts_at, w.ends_at, c.monitor_id from maintenance w join maintenance_component mc on mc.maintenance_id = w.id
  join status_page_component c on c.id = mc.component_id where c.monitor_id is not null`;

async function summarize(db: Db, workspaceId: number, monitorIds: number[], range: ReportRange, target: number): Promise<SlaReport> {
  const marks = monitorIds.map(() => "?").join(", ") || "null";
  const [counts, windows, incidents] = await db.$client.batch(
    [
      {
        sql: `select m.id, m.name, count(r.id) as checks, coalesce(sum(r.status = 2), 0) as failed from monitor m
          left join (select r.* from check_result_row r where r.workspace_id = ? and r.cron_timestamp >= ? and r.cron_timestamp < ?
            and not exists (select 1 from (${COVERING}) w where w.monitor_id = r.monitor_id and r.cron_timestamp >= w.starts_at and r.cron_timestamp < w.ends_at)
          ) r on r.monitor_id = m.id
          where m.workspace_id = ? and m.id in (${marks}) group by m.id order by m.id`,
        args: [workspaceId, range.from, range.to, workspaceId, ...monitorIds],
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
  const excluded = await db.$client.execute({
    sql: `select r.monitor_id, count(*) as n from check_result_row r where r.workspace_id = ? and r.monitor_id in (${marks}) and r.cron_timestamp >= ? and r.cron_timestamp < ?
      and exists (select 1 from (${COVERING}) w where w.monitor_id = r.monitor_id and r.cron_timestamp >= w.starts_at and r.cron_timestamp < w.ends_at) group by r.monitor_id`,
    args: [workspaceId, ...monitorIds, range.from, range.to],
  });
  const inMaintenance = new Map(excluded.rows.map((r) => [Number(r.monitor_id), Number(r.n)]));
  const monitors: MonitorSla[] = counts!.rows.map((r) => {
    const checks = Number(r.checks);
    const failed = Number(r.failed);
    return {
      monitorId: Number(r.id),
      monitorName: String(r.name),
      checks,
      failed,
      inMaintenance: inMaintenance.get(Number(r.id)) ?? 0,
      uptime: checks === 0 ? 1 : (checks - failed) / checks,
      errorBudget: budget(checks, failed, target),
    };
  });
  const checks = monitors.reduce((a, m) => a + m.checks, 0);
  const failed = monitors.reduce((a, m) => a + m.failed, 0);
  return {
    ...range,
    target,
    uptime: checks === 0 ? 1 : (checks - failed) / checks,
    checks,
    failed,
    inMaintenance: monitors.reduce((a, m) => a + m.inMaintenance, 0),
    errorBudget: budget(checks, failed, target),
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
): Promise<SlaReport> {
  const found = await db.$client.execute({
    sql: "select id from monitor where id = ? and workspace_id = ? and deleted_at is null",
    args: [monitorId, workspaceId],
  });
  if (found.rows.length === 0) throw new NotFoundError("monitor", monitorId);
  return summarize(db, workspaceId, [monitorId], range, target);
}

/** A status page's SLA: its monitor-backed components together, with its status reports as incidents. */
export async function pageSlaReport(db: Db, workspaceId: number, pageId: number, range: ReportRange, target: number): Promise<SlaReport> {
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
  /** The range's time the counted checks stand for: its length less the share maintenance left out. */
  countedMs: number;
  /** (1 − target) of the counted time. */
  allowedMs: number;
  /** The failed share of the checks, applied to the counted time. */
  usedMs: number;
  /** allowed − used; below 0 once the budget is spent. */
  remainingMs: number;
}

/**
 * The error budget in time, for people who think in minutes: the report's shares applied to the time it
 * counted. used / allowed is failed / allowedFailures, so the budget left is the report's, in other units.
 */
export function slaDowntime(r: Pick<SlaReport, "from" | "to" | "target" | "checks" | "failed" | "inMaintenance">): SlaDowntime {
  const seen = r.checks + r.inMaintenance;
  const countedMs = seen === 0 ? r.to - r.from : ((r.to - r.from) * r.checks) / seen;
  const allowedMs = countedMs * (1 - r.target);
  const usedMs = r.checks === 0 ? 0 : (countedMs * r.failed) / r.checks;
  return { countedMs, allowedMs, usedMs, remainingMs: allowedMs - usedMs };
}

const cell = (v: string | number) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const pct = (x: number) => (x * 100).toFixed(4);

/** One line per monitor, then the total: what a spreadsheet needs to check the figures. */
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
  ];
  const line = (id: string | number, name: string, x: Pick<SlaReport, "checks" | "failed" | "inMaintenance" | "uptime" | "errorBudget">) =>
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
    ]
      .map(cell)
      .join(",");
  return `${[head.join(","), ...r.monitors.map((m) => line(m.monitorId, m.monitorName, m)), line("", "total", r)].join("\n")}\n`;
}
