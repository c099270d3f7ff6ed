// A plain SVG drawn on the server: a list page carries 25-100 of them, and a chart library per row made
// every render (and every 4 s live refresh) pay for laying out charts nobody can interact with.

export interface SparkPoint {
  t: number;
  p50: number | null;
  errors: number;
}

const W = 112;
const H = 32;
const PAD = 2;

/** 24 h of hourly median latency; hours with errors tint the line red. Hours without a median break the line. */
export function Sparkline({ points, label }: { points: SparkPoint[]; label: string }) {
  // One hour of data is a dot, not a trend.
  if (points.length < 2) return <span className="text-xs text-zinc-400">{points.length === 0 ? "no data" : "first hour"}</span>;
  const failing = points.some((p) => p.errors > 0);
  const color = failing ? "#dc2626" : "#059669";
  const max = Math.max(0, ...points.map((p) => p.p50 ?? 0));
  const x = (i: number) => (i * W) / (points.length - 1);
  const y = (v: number) => PAD + (max === 0 ? 1 : 1 - v / max) * (H - 2 * PAD);
  const runs: [number, number][][] = [[]];
  points.forEach((p, i) => {
    if (p.p50 === null) runs.push([]);
    else runs.at(-1)!.push([x(i), y(p.p50)]);
  });
  const fmt = (n: number) => Math.round(n * 10) / 10;
  const line = (run: [number, number][]) => run.map(([px, py], i) => `${i === 0 ? "M" : "L"}${fmt(px)} ${fmt(py)}`).join(" ");
  const drawn = runs.filter((run) => run.length > 0);
  return (
    <div role="img" aria-label={label} className="h-8 w-28">
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-hidden>
        {drawn.map((run) => (
          <g key={run[0]![0]}>
            <path d={`${line(run)} L${fmt(run.at(-1)![0])} ${H - PAD} L${fmt(run[0]![0])} ${H - PAD} Z`} fill={color} fillOpacity={0.12} />
            <path d={line(run)} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" />
          </g>
        ))}
      </svg>
    </div>
  );
}
