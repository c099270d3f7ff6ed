import type { ComponentState, OverallState, PublicReport, UptimeDay } from "@vigil/core";

export const OVERALL_TEXT: Record<OverallState, string> = {
  operational: "All systems operational",
  degraded: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
  maintenance: "Under maintenance",
};

export const STATE_TEXT: Record<ComponentState, string> = {
  operational: "Operational",
  degraded: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
  maintenance: "Under maintenance",
  monitoring_off: "Automated monitoring is off",
};

/** One class per state: colors live in globals.css so light and dark themes agree. */
export const stateClass = (s: ComponentState | UptimeDay["level"]) => `st-${s.replace("_", "-")}`;

export const REPORT_STATUS_TEXT: Record<PublicReport["status"], string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};

export const IMPACT_TEXT = { degraded: "Degraded performance", partial_outage: "Partial outage", major_outage: "Major outage" } as const;

const dateFmt = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const dayFmt = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const timeFmt = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });

export const formatDate = (ms: number) => dateFmt.format(ms);
export const formatDay = (ms: number) => dayFmt.format(ms);
export const formatDateTime = (ms: number) => `${dateFmt.format(ms)}, ${timeFmt.format(ms)} UTC`;
export const formatTime = (ms: number) => `${timeFmt.format(ms)} UTC`;

export function formatUptime(u: number | null): string {
  if (u === null) return "no data";
  const pct = u * 100;
  return `${pct >= 99.995 ? "100" : pct.toFixed(2)}%`;
}

/** The text a day's bar shows on hover or focus. */
export function dayTip(d: UptimeDay): string {
  const lines = [
    `${formatDate(d.day)}: ${d.uptime === null ? "no checks" : `${formatUptime(d.uptime)} uptime (${d.checks - d.errors}/${d.checks} checks)`}`,
  ];
  if (d.maintenance) lines.push("Maintenance");
  for (const i of d.incidents) lines.push(`${IMPACT_TEXT[i.impact]}: ${i.title}`);
  if (d.incidents.length === 0 && !d.maintenance) lines.push("No incidents");
  return lines.join("\n");
}
