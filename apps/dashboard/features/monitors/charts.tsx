"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { CartesianGrid, ComposedChart, Line, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Re-renders the server component every few seconds while the tab is visible: live status without a full reload. */
export function AutoRefresh({ everyMs = 4000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => clearInterval(t);
  }, [router, everyMs]);
  return null;
}

export interface ChartSeries {
  key: string;
  /** The location's index in the rows' keys (`failed_<i>`, `checks_<i>`). */
  location: number;
  label: string;
  color: string;
  dash?: string;
}

export type BandKind = "failed" | "degraded" | "no-data" | "maintenance";
export interface Band {
  from: number;
  to: number;
  kind: BandKind;
}

/** Failures and gaps are areas behind the lines, so an outage never reads as a latency. */
export const BAND_STYLE: Record<BandKind, { fill: string; opacity: number; label: string }> = {
  failed: { fill: "#dc2626", opacity: 0.22, label: "failed checks" },
  degraded: { fill: "#f59e0b", opacity: 0.2, label: "degraded" },
  "no-data": { fill: "#a1a1aa", opacity: 0.25, label: "no data" },
  maintenance: { fill: "#6366f1", opacity: 0.12, label: "maintenance" },
};

function tick(t: number, spanMs: number) {
  const d = new Date(t);
  // A few minutes' ticks are seconds apart: HH:MM alone would repeat.
  if (spanMs <= 15 * 60_000) return d.toISOString().slice(11, 19);
  if (spanMs <= 2 * 86_400_000) return d.toISOString().slice(11, 16);
  return d.toISOString().slice(5, 10);
}

const when = (t: number) => `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;

type Row = Record<string, number | null>;

/** What one slot or bucket held, per location: its latency, or that its checks failed or did not come. */
function SlotTip({
  active,
  payload,
  series,
  bucketMs,
}: {
  active?: boolean;
  payload?: readonly { payload?: Row }[];
  series: ChartSeries[];
  /** Set for an aggregated chart, whose points stand for the bucket around them. */
  bucketMs?: number;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const t = Number(row.t);
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-3 py-2 text-xs shadow-sm">
      <p className="mb-1 font-medium text-zinc-700">
        {bucketMs ? `${when(t - bucketMs / 2).replace(" UTC", "")} – ${when(t + bucketMs / 2)}` : when(t)}
      </p>
      {series.map((s) => {
        const checks = Number(row[`checks_${s.location}`] ?? 0);
        const failed = Number(row[`failed_${s.location}`] ?? 0);
        const v = row[s.key];
        return (
          <p key={s.key} style={{ color: s.color }}>
            {s.label}:{" "}
            {checks === 0
              ? "no data"
              : v === null || v === undefined
                ? `failed${checks > 1 ? ` (${failed} of ${checks})` : ""}`
                : `${v} ms${failed > 0 ? ` · ${failed} of ${checks} failed` : ""}`}
          </p>
        );
      })}
    </div>
  );
}

/**
 * Latency of the checks that did not fail, one line per location (and percentile when aggregated), over
 * bands for failed, degraded, "no data" and maintenance spans. A slot without a latency breaks the line.
 */
export function LatencyChart({
  rows,
  series,
  bands,
  from,
  to,
  bucketMs,
  summaryId,
}: {
  rows: Row[];
  series: ChartSeries[];
  bands: Band[];
  from: number;
  to: number;
  /** Set for an aggregated chart: the span each point stands for. */
  bucketMs?: number;
  /** The id of the text saying what the chart shows (its accessible description). */
  summaryId: string;
}) {
  const spanMs = to - from;
  const dot = rows.length <= 240 ? { r: 2 } : { r: 1 };
  const kinds = (Object.keys(BAND_STYLE) as BandKind[]).filter((k) => bands.some((b) => b.kind === k));
  return (
    <div>
      {/* A figure, not an image: the chart's points answer the keyboard (recharts' accessibility layer). */}
      <figure className="h-72 w-full" aria-label="Latency chart" aria-describedby={summaryId} data-testid="latency-chart">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 900, height: 288 }}>
          <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#f4f4f5" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={[from, to]}
              allowDataOverflow
              tickFormatter={(t: number) => tick(t, spanMs)}
              tick={{ fontSize: 11, fill: "#71717a" }}
              stroke="#e4e4e7"
            />
            <YAxis unit=" ms" width={64} tick={{ fontSize: 11, fill: "#71717a" }} stroke="#e4e4e7" />
            {bands.map((b) => (
              <ReferenceArea
                key={`${b.kind}-${b.from}`}
                x1={b.from}
                x2={b.to}
                fill={BAND_STYLE[b.kind].fill}
                fillOpacity={BAND_STYLE[b.kind].opacity}
                strokeOpacity={0}
                ifOverflow="hidden"
                className={`chart-band chart-band-${b.kind}`}
              />
            ))}
            <Tooltip content={<SlotTip series={series} bucketMs={bucketMs} />} />
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                strokeDasharray={s.dash}
                strokeWidth={1.75}
                dot={s.dash ? false : { ...dot, fill: s.color, strokeWidth: 0 }}
                activeDot={{ r: 3 }}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </figure>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 px-2 text-xs text-zinc-600" aria-label="Chart legend">
        {series.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <svg width="18" height="6" aria-hidden>
              <line x1="0" y1="3" x2="18" y2="3" stroke={s.color} strokeWidth="2" strokeDasharray={s.dash} />
            </svg>
            {s.label}
          </li>
        ))}
        {kinds.map((k) => (
          <li key={k} className="flex items-center gap-1.5">
            <span
              className="inline-block size-3 rounded-sm"
              style={{ background: BAND_STYLE[k].fill, opacity: Math.min(1, BAND_STYLE[k].opacity * 3) }}
              aria-hidden
            />
            {BAND_STYLE[k].label}
          </li>
        ))}
      </ul>
    </div>
  );
}
