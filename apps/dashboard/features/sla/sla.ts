// The SLA view's query: a calendar month or a from/to range, and the target in percent. The same fields as
// GET /v1/sla (api-contract's SlaQuery, core's reportRange), read from a page's or a download's search params.
import { SlaQuery } from "@vigil/api-contract";
import {
  getMonitor,
  getStatusPage,
  monitorSlaReport,
  NotFoundError,
  pageSlaReport,
  type ReportRange,
  reportRange,
  type SlaReport,
  slaCsv,
  slaTarget,
  ValidationError,
} from "@vigil/core";
import { cache } from "react";
import { getDb } from "../../lib/db";
import { currentUser, downloadMember, SecondFactorRequired } from "../../lib/session";

type Params = Record<string, string | string[] | undefined>;
export type SlaField = "month" | "from" | "to" | "target";
export type SlaSubject = "monitor" | "page";

/** What the form shows (as typed) and, when every field holds, the range and the target the report takes. */
export interface SlaRequest {
  period: "month" | "range";
  values: Record<SlaField, string>;
  errors: Partial<Record<SlaField, string>>;
  ok: { range: ReportRange; target: number } | null;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
export const thisMonth = (now: number) => new Date(now).toISOString().slice(0, 7);
export const DEFAULT_TARGET = "99.9";

/**
 * `period` (the form's choice) picks the month or the range; without it, `from` means a range. An empty month
 * is the current one. Every bad field is named with its rule, as the API names it.
 */
export function readSla(params: Params, now = Date.now()): SlaRequest {
  const raw = { month: one(params.month), from: one(params.from), to: one(params.to), target: one(params.target) };
  const asked = one(params.period);
  const period = asked === "month" || asked === "range" ? asked : raw.from && !raw.month ? "range" : "month";
  const values = { ...raw, month: raw.month || (period === "month" ? thisMonth(now) : ""), target: raw.target || DEFAULT_TARGET };
  const errors: SlaRequest["errors"] = {};
  const target = SlaQuery.shape.target.safeParse(values.target);
  if (!target.success) errors.target = target.error.issues[0]?.message ?? "must be a number";
  let range: ReportRange | null = null;
  if (period === "range" && !values.from) errors.from = "is required for a custom range";
  else
    try {
      range = reportRange(period === "month" ? { month: values.month } : { from: values.from, to: values.to || undefined }, now);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const i of err.issues) errors[i.path as SlaField] = i.message;
    }
  return { period, values, errors, ok: range && target.success ? { range, target: slaTarget(target.data) } : null };
}

/** The query that names this report (or, with `month`, that month's): downloads, the printable page, links. */
export function slaQuery(r: SlaRequest, month?: string): string {
  const v = r.values;
  const q = new URLSearchParams(
    month || r.period === "month" ? { month: month ?? v.month } : { from: v.from, ...(v.to ? { to: v.to } : {}) },
  );
  q.set("target", v.target);
  return q.toString();
}

/** YYYY-MM moved by `by` months. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1 + by, 1)).toISOString().slice(0, 7);
}

/** The report as measured at `now` (the instant its range was read at, so "now" ends both). */
export const loadSla = (
  subject: SlaSubject,
  workspaceId: number,
  id: number,
  ok: NonNullable<SlaRequest["ok"]>,
  now = Date.now(),
): Promise<SlaReport> =>
  subject === "monitor"
    ? monitorSlaReport(getDb(), workspaceId, id, ok.range, ok.target, now)
    : pageSlaReport(getDb(), workspaceId, id, ok.range, ok.target, now);

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" } });
const isId = (s: string) => /^\d{1,15}$/.test(s);

/**
 * The report as a download (`format` csv or json), for any member of the workspace, viewers included;
 * signed out: 401; another workspace's monitor or page: 404; a bad field: 400 naming it and its rule.
 */
export async function slaDownload(req: Request, subject: SlaSubject, params: Promise<{ ws: string; id: string }>): Promise<Response> {
  const { ws, id } = await params;
  const user = await currentUser();
  if (!user) return text("Sign in first.\n", 401);
  if (!isId(ws) || !isId(id)) return text("Not found.\n", 404);
  const search = Object.fromEntries(new URL(req.url).searchParams);
  const format = SlaQuery.shape.format.safeParse(search.format ?? "csv");
  const r = readSla(search);
  try {
    const m = await downloadMember(Number(ws), user.id);
    if (!format.success) return text(`format ${format.error.issues[0]?.message}\n`, 400);
    if (!r.ok)
      return text(
        `${Object.entries(r.errors)
          .map(([field, rule]) => `${field} ${rule}`)
          .join("\n")}\n`,
        400,
      );
    const report = await loadSla(subject, m.workspace.id, Number(id), r.ok);
    const name = `sla-${subject}-${id}-${r.period === "month" ? r.values.month : `${r.values.from}-to-${r.values.to || "now"}`}`.replace(
      /[^\w.-]/g,
      "-",
    );
    const csv = format.data === "csv";
    return new Response(csv ? slaCsv(report) : `${JSON.stringify(report, null, 2)}\n`, {
      headers: {
        "content-type": csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${name}.${format.data}"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (err) {
    if (err instanceof SecondFactorRequired) return err.response();
    if (err instanceof NotFoundError) return text("Not found.\n", 404);
    throw err;
  }
}

/** A page's request and, when its fields hold, its report; `now` is the one instant both were read at. */
export async function slaFor(subject: SlaSubject, workspaceId: number, id: number, params: Params) {
  const now = Date.now();
  const req = readSla(params, now);
  const report = req.ok ? await loadSla(subject, workspaceId, id, req.ok, now) : null;
  return { req, report, now };
}

/** The monitor or status page a URL names (`monitors` / `status-pages` and an id) in the workspace; null: a 404. */
export const slaSubject = cache(async (kind: string, workspaceId: number, id: string) => {
  if (!isId(id) || (kind !== "monitors" && kind !== "status-pages")) return null;
  try {
    if (kind === "monitors") {
      const mon = await getMonitor(getDb(), workspaceId, Number(id));
      return { subject: "monitor" as const, id: mon.id, name: mon.name || mon.key || `#${mon.id}` };
    }
    const page = await getStatusPage(getDb(), workspaceId, Number(id));
    return { subject: "page" as const, id: page.id, name: page.title };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
});
