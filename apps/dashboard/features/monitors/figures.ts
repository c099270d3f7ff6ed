// Small readings shared by the monitor list and a monitor's page.

/** A search param's first value. */
export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** An uptime share as people read it, rounded down: 0.99996 → "99.99 %". */
export const pct = (u: number | null | undefined) =>
  u === null || u === undefined ? "—" : `${(Math.floor(u * 10_000) / 100).toFixed(2)} %`;
