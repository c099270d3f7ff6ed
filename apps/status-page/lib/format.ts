// English words for machines (status.json, badges); pages speak the visitor's language (@vigil/core/i18n).
import type { ComponentState, OverallState, UptimeDay } from "@vigil/core";

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

/** For machines and badges (status.json, SVG): an uptime ratio as "99.94%". */
export function formatUptime(u: number | null): string {
  if (u === null) return "no data";
  const pct = u * 100;
  return `${pct >= 99.995 ? "100" : pct.toFixed(2)}%`;
}
