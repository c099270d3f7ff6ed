import type { PublicComponent, UptimeDay } from "@vigil/core";
import type { Translator } from "@vigil/core/i18n";

/** Short classes: 90 bars per component add up. */
const LEVEL: Record<UptimeDay["level"], string> = {
  operational: "o",
  degraded: "d",
  partial_outage: "p",
  major_outage: "x",
  maintenance: "m",
  none: "n",
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"'\n]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "\n": "&#10;" })[c]!);

/** The text a day's bar shows on hover or focus. */
export function dayTip(d: UptimeDay, tr: Translator): string {
  const date = tr.date(d.day);
  const lines = [
    d.uptime === null
      ? tr.t("bars.dayNoChecks", { date })
      : tr.t("bars.day", { date, uptime: tr.uptime(d.uptime), ok: d.checks - d.errors, total: d.checks }),
  ];
  // Time no probe reported is neither up nor down: said apart, so a gap never passes for uptime.
  if (d.uptime !== null && d.noDataMs >= 60_000) lines.push(tr.t("bars.noData", { minutes: Math.round(d.noDataMs / 60_000) }));
  if (d.maintenance) lines.push(tr.t("bars.maintenance"));
  for (const i of d.incidents) lines.push(`${tr.t(`state.${i.impact}`)}: ${i.title}`);
  if (d.incidents.length === 0 && !d.maintenance) lines.push(tr.t("bars.noIncidents"));
  return lines.join("\n");
}

const cache = new WeakMap<PublicComponent, Map<string, string>>();

/**
 * The 90 day bars of one component as HTML: one focusable element per day whose aria-label is read by
 * screen readers and shown on hover/focus by CSS. Built as a string (escaped here) and kept with the
 * memoized page data: a burst of visitors does not rebuild 1,800 elements per request.
 */
export function barsHtml(c: PublicComponent, tr: Translator): string {
  const byLocale = cache.get(c) ?? new Map<string, string>();
  cache.set(c, byLocale);
  const hit = byLocale.get(tr.locale);
  if (hit !== undefined) return hit;
  const n = c.days.length;
  const items = c.days.map((d, i) => {
    const edge = i < 12 ? " ts" : i >= n - 12 ? " te" : "";
    return `<li tabindex="0" class="b ${LEVEL[d.level]}${edge}" aria-label="${escapeHtml(dayTip(d, tr))}"></li>`;
  });
  const html = `<ul class="bars mt-3" aria-label="${escapeHtml(tr.t("bars.label", { name: c.name }))}">${items.join("")}</ul>`;
  byLocale.set(tr.locale, html);
  return html;
}
