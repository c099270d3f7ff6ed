import type { LocationState, MonitorChart, OfflineLocation } from "@vigil/core";
import { ChartLine, CloudOff } from "lucide-react";
import Link from "next/link";
import { dateTime, duration } from "../../lib/format";
import { Card, CardHeader, cx, Empty } from "../../ui/ui";
import { type ChartSeries, LatencyChart } from "./charts";
import { chartSummary, colorOf, measuredStart, RANGES, type Range } from "./series";

/** The lines of a chart: each check per location at check resolution, p50 and p95 per location when aggregated. */
function seriesOf(chart: MonitorChart, locations: readonly LocationState[]): ChartSeries[] {
  return chart.checkResolution
    ? locations.map((l, i) => ({ key: `latency_${i}`, location: i, label: l.name, color: colorOf(i) }))
    : locations.flatMap((l, i) => [
        { key: `p50_${i}`, location: i, label: `${l.name} p50`, color: colorOf(i) },
        { key: `p95_${i}`, location: i, label: `${l.name} p95`, color: colorOf(i), dash: "6 3" },
      ]);
}

/** The latency card: range selector, chart with failure bands, and the chart in words. */
export function LatencyCard({
  chart,
  locations,
  range,
  regions,
  hrefOf,
}: {
  chart: MonitorChart | null;
  locations: readonly LocationState[];
  range: Range;
  regions: string;
  hrefOf: (r: Range) => string;
}) {
  const measured = chart === null ? 0 : chart.to - measuredStart(chart);
  const clipped = chart !== null && measured < RANGES[range].ms - chart.bucketMs;
  const description = chart
    ? `${
        chart.checkResolution
          ? "Every check, per location."
          : `p50 (solid) and p95 (dashed) of the checks that did not fail, per location and ${duration(chart.bucketMs)}.`
      } Failed checks are red bands, never latency points; grey is no result.${
        clipped ? ` Since the first check: the monitor has results for ${duration(measured)}.` : ""
      }`
    : undefined;
  return (
    <Card className="mb-6">
      <CardHeader
        title="Latency"
        description={description}
        action={
          <nav aria-label="Chart range" className="inline-flex rounded-md border border-zinc-200 p-0.5 text-sm">
            {(Object.keys(RANGES) as Range[]).map((r) => (
              <Link
                key={r}
                href={hrefOf(r)}
                aria-current={r === range ? "page" : undefined}
                aria-label={`Last ${RANGES[r].label}`}
                className={cx(
                  "rounded px-2.5 py-1 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  r === range ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100",
                )}
              >
                {r}
              </Link>
            ))}
          </nav>
        }
      />
      <div className="px-3 py-4">
        {chart === null ? (
          <Empty icon={<CloudOff className="size-5" aria-hidden />} title="Results unavailable">
            The results could not be read; the chart comes back when they can.
          </Empty>
        ) : chart.summary.checks === 0 ? (
          <Empty icon={<ChartLine className="size-5" aria-hidden />} title="No results in this range yet">
            Results appear after the first check of a probe serving {regions}.
          </Empty>
        ) : (
          <>
            <LatencyChart
              rows={chart.rows}
              series={seriesOf(chart, locations)}
              bands={chart.bands}
              from={chart.from}
              to={chart.to}
              bucketMs={chart.checkResolution ? undefined : chart.bucketMs}
              summaryId="latency-summary"
            />
            <p id="latency-summary" data-testid="chart-summary" className="mt-3 px-2 text-sm text-zinc-700">
              {chartSummary(chart)}
            </p>
            <ul className="mt-1 flex flex-wrap gap-x-6 gap-y-1 px-2 text-sm text-zinc-600">
              {chart.locations.map((l) => (
                <li key={l.locationId}>
                  <span className="font-medium text-zinc-800">{l.name}</span>: {l.checks} checks · {l.failed} failed
                  {l.degraded > 0 ? ` · ${l.degraded} degraded` : ""}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Card>
  );
}

/** One line per location serving the monitor whose probe is offline: its results are missing, not "up". */
export function OfflineBanner({ locations }: { locations: readonly OfflineLocation[] }) {
  if (locations.length === 0) return null;
  return (
    <div role="status" data-testid="offline-locations" className="mb-6 rounded-xl border border-amber-200 bg-amber-50 px-5 py-4 text-sm">
      <div className="flex items-start gap-3">
        <CloudOff className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden />
        <ul className="grid gap-1 text-amber-900">
          {locations.map((l) => (
            <li key={l.locationId}>{offlineText(l)}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export const offlineText = (l: OfflineLocation) =>
  l.lastSeenAt === null
    ? `Location ${l.name} has never reported: results from it are missing.`
    : `Location ${l.name} has not reported since ${dateTime(l.lastSeenAt)}: results from it are missing.`;
