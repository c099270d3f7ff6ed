// The SLA report's figures as people read them, shared by the dashboard view and its printable page.
import { spanText } from "@vigil/api-contract";
import { type SlaReport, slaDowntime } from "@vigil/core";
import { dateTime, duration } from "../../lib/format";
import type { SlaRequest } from "./sla";

/** Rounded down: 99.9996 % must not read as 100.000 %, nor a miss of the target as meeting it. */
export const uptimeText = (x: number) => `${(Math.floor(x * 100_000 + 1e-6) / 1000).toFixed(3)} %`;
export const targetText = (target: number) => `${Number((target * 100).toFixed(6))} %`;
const shareText = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Every unit down to the second ("30 d 20 h", "1 h 5 s"): the figures agree with the API's to the second. */
export const measuredTime = (ms: number) => spanText(Math.round(Math.abs(ms) / 1000) * 1000);

/** A budget to the second; under a second to the millisecond (10 measured minutes at 99.9 % allow 0.6 s). */
export const budgetTime = (ms: number) => spanText(Math.abs(ms));

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

export interface Figure {
  key: "uptime" | "allowed" | "used" | "remaining";
  label: string;
  value: string;
  detail: string;
  tone: "green" | "amber" | "red" | null;
}

/** Uptime, allowed downtime, downtime used and the budget left (or exhausted), as core computes them. */
export function slaFigures(r: SlaReport): Figure[] {
  const d = slaDowntime(r);
  const exhausted = r.errorBudget.remaining <= 0;
  return [
    {
      key: "uptime",
      label: "Uptime",
      value: uptimeText(r.uptime),
      detail: `${r.checks - r.failed} of ${plural(r.checks, "check")} up · ${r.uptime >= r.target ? "meets" : "below"} the target`,
      tone: r.uptime >= r.target ? "green" : "red",
    },
    {
      key: "allowed",
      label: "Allowed downtime",
      value: budgetTime(d.allowedMs),
      detail: `${shareText(1 - r.target)} of ${measuredTime(d.countedMs)} counted · ${r.errorBudget.allowedFailures.toFixed(2)} failed checks at ${targetText(r.target)}`,
      tone: null,
    },
    {
      key: "used",
      label: "Downtime used",
      value: budgetTime(d.usedMs),
      detail: plural(r.failed, "failed check"),
      tone: r.failed === 0 ? null : exhausted ? "red" : "amber",
    },
    exhausted
      ? {
          key: "remaining",
          label: "Budget remaining",
          value: "Budget exhausted",
          detail:
            d.remainingMs < 0 ? `overspent by ${budgetTime(d.remainingMs)} (${shareText(r.errorBudget.remaining)})` : "all of it used",
          tone: "red",
        }
      : {
          key: "remaining",
          label: "Budget remaining",
          value: shareText(r.errorBudget.remaining),
          detail: `${budgetTime(d.remainingMs)} left`,
          tone: r.errorBudget.remaining < 0.25 ? "amber" : "green",
        },
  ];
}

/**
 * What was measured, in one line under the figures: from the later of the period's start and the first check to
 * the earlier of its end and now, with the time no probe reported ("no data") and maintenance apart.
 */
export function countedLine(r: SlaReport): string {
  const parts = [`${measuredTime(r.upMs + r.degradedMs)} up`, `${measuredTime(r.downMs)} down`];
  if (r.noDataMs) parts.push(`${measuredTime(r.noDataMs)} no data`);
  if (r.maintenanceMs) parts.push(`${measuredTime(r.maintenanceMs)} in maintenance left out`);
  const checks = `${plural(r.checks, "check")} counted${r.inMaintenance ? `, ${r.inMaintenance} in maintenance left out` : ""}`;
  return `Measured ${measuredTime(r.measuredMs)} from ${dateTime(r.measuredFrom)}: ${parts.join(" · ")}. ${checks}; degraded checks count as up.`;
}

const MONTH = new Intl.DateTimeFormat("en", { month: "long", year: "numeric", timeZone: "UTC" });
/** "2026-10" → "October 2026". */
export const monthName = (month: string) => MONTH.format(Date.parse(`${month}-01T00:00:00Z`));

/** "October 2026", "November 2026 (to 27 Nov 19:00 UTC)", or a custom range's two ends. */
export function periodLabel(req: SlaRequest, range: { from: number; to: number }): string {
  if (req.period === "range") return `${dateTime(range.from).replace(" UTC", "")} – ${dateTime(range.to)}`;
  const [y, m] = req.values.month.split("-").map(Number);
  const full = range.to >= Date.UTC(y!, m!, 1);
  return full ? MONTH.format(range.from) : `${MONTH.format(range.from)} (to ${dateTime(range.to)})`;
}

export interface IncidentRow {
  key: string;
  kind: "Monitor incident" | "Status report";
  title: string;
  started: string;
  ended: string;
  lasted: string;
}

/** The incidents the report lists: a monitor's, and a page's status reports; an open one is ongoing. */
export function incidentRows(r: SlaReport, now = Date.now()): IncidentRow[] {
  return r.incidents.map((i) => ({
    key: `${i.kind}-${i.id}`,
    kind: i.kind === "monitor" ? "Monitor incident" : "Status report",
    title: i.title,
    started: dateTime(i.startedAt),
    ended: i.resolvedAt === null ? "ongoing" : dateTime(i.resolvedAt),
    lasted: duration((i.resolvedAt ?? now) - i.startedAt),
  }));
}
