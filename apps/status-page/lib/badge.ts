const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/** Rough Verdana 11px advance: enough to size a badge without a font. */
const textWidth = (s: string) =>
  Math.round(
    [...s].reduce((w, ch) => w + (/[ilIj.,:;'|!]/.test(ch) ? 3.5 : /[mwMW%]/.test(ch) ? 9.5 : /[A-Z0-9]/.test(ch) ? 7.5 : 6.5), 0),
  );

/** A flat two-part badge (label | message), valid standalone SVG with a title for screen readers. */
export function renderBadge(label: string, message: string, color: string): string {
  const lw = textWidth(label) + 12;
  const mw = textWidth(message) + 12;
  const w = lw + mw;
  const l = escapeXml(label);
  const m = escapeXml(message);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${m}" data-status="${escapeXml(color)}"><title>${l}: ${m}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><rect width="${w}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${l}</text><text x="${lw / 2}" y="14">${l}</text><text x="${lw + mw / 2}" y="15" fill="#010101" fill-opacity=".3">${m}</text><text x="${lw + mw / 2}" y="14">${m}</text></g></svg>`;
}

export const BADGE_COLORS = {
  operational: "#10b981",
  degraded: "#f59e0b",
  partial_outage: "#f97316",
  major_outage: "#ef4444",
  maintenance: "#3b82f6",
  monitoring_off: "#94a3b8",
} as const;

/** Uptime colors: the same cut-offs as the daily bars. */
export function uptimeColor(u: number | null): string {
  if (u === null) return "#94a3b8";
  if (u >= 0.999) return BADGE_COLORS.operational;
  if (u >= 0.99) return BADGE_COLORS.degraded;
  if (u >= 0.95) return BADGE_COLORS.partial_outage;
  return BADGE_COLORS.major_outage;
}
