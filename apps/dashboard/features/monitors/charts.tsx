"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

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
  label: string;
  color: string;
  dash?: string;
}

function tick(t: number, spanMs: number) {
  const d = new Date(t);
  if (spanMs <= 2 * 86_400_000) return d.toISOString().slice(11, 16);
  return d.toISOString().slice(5, 10);
}

/** Latency over time, one line per location and percentile. */
export function LatencyChart({ rows, series, spanMs }: { rows: Record<string, number | null>[]; series: ChartSeries[]; spanMs: number }) {
  return (
    <div className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 900, height: 288 }}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(t: number) => tick(t, spanMs)}
            tick={{ fontSize: 11, fill: "#71717a" }}
            stroke="#e4e4e7"
          />
          <YAxis unit=" ms" width={64} tick={{ fontSize: 11, fill: "#71717a" }} stroke="#e4e4e7" />
          <Tooltip
            labelFormatter={(t) => `${new Date(Number(t)).toISOString().slice(0, 16).replace("T", " ")} UTC`}
            formatter={(v) => (v === null || v === undefined ? "—" : `${v} ms`)}
            contentStyle={{ fontSize: 12, borderRadius: 8 }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stroke={s.color}
              strokeDasharray={s.dash}
              strokeWidth={1.75}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
