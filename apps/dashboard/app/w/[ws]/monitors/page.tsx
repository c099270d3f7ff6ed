// Over 300 lines: the list's filters, sort and paging are one server page over one query.
import { CHECK_KINDS, MONITOR_HEALTH } from "@vigil/api-contract";
import { heartbeatGlance, listMonitorPage, MonitorListQuery, offlineLocations, openAlerts, probeRegions, workspaceTags } from "@vigil/core";
import { ArrowDown, ArrowUp, CheckCheck, ChevronLeft, ChevronRight, CloudOff, Plus, Search, SearchX } from "lucide-react";
import Link from "next/link";
import { AckButton } from "../../../../features/alerts/ack-button";
import { HeartbeatGlance } from "../../../../features/heartbeats/heartbeat-panel";
import { MonitorsActions } from "../../../../features/monitors/bulk-actions";
import { CertDays } from "../../../../features/monitors/cert-days";
import { AutoRefresh } from "../../../../features/monitors/charts";
import { one, pct } from "../../../../features/monitors/figures";
import { HEALTH_LABEL, HealthWithLocations } from "../../../../features/monitors/health";
import { measuredUptimes, sparklines } from "../../../../features/monitors/series";
import { getDb } from "../../../../lib/db";
import { ago } from "../../../../lib/format";
import { regionLabel } from "../../../../lib/regions";
import { memberOf } from "../../../../lib/session";
import { Sparkline } from "../../../../ui/sparkline";
import { Button, buttonClass, Card, Empty, Input, Notice, PageHeader, Select, td } from "../../../../ui/ui";

export const metadata = { title: "Monitors" };

type Params = Record<string, string | string[] | undefined>;

const COLUMNS: { label: string; sort?: MonitorListQuery["sort"]; className?: string }[] = [
  { label: "Monitor", sort: "name" },
  { label: "Status", sort: "status" },
  { label: "Last check", sort: "last-check", className: "hidden sm:table-cell" },
  { label: "Latency", sort: "latency", className: "text-right" },
  { label: "Uptime 24 h", className: "hidden md:table-cell text-right" },
  { label: "Latency 24 h", className: "hidden lg:table-cell" },
];

export default async function Monitors({ params, searchParams }: { params: Promise<{ ws: string }>; searchParams: Promise<Params> }) {
  const m = await memberOf((await params).ws);
  const sp = await searchParams;
  const raw = Object.fromEntries(Object.entries(sp).map(([k, v]) => [k, one(v) || undefined]));
  const query = MonitorListQuery.parse(raw);
  const db = getDb();
  const ws = m.workspace.id;
  const [page, locations, tags, offline] = await Promise.all([
    listMonitorPage(db, ws, query),
    probeRegions(db, ws),
    workspaceTags(db, ws),
    offlineLocations(db, ws),
  ]);
  const now = Date.now();
  const [sparks, uptimes, glance, alerts] = await Promise.all([
    sparklines(
      page.rows.map((r) => r.id),
      now,
    ),
    measuredUptimes(
      page.rows.filter((r) => r.kind !== "heartbeat").map((r) => r.id),
      24 * 3_600_000,
      now,
    ),
    heartbeatGlance(
      db,
      page.rows.filter((r) => r.kind === "heartbeat").map((r) => r.id),
      now,
    ),
    openAlerts(
      db,
      ws,
      page.rows.map((r) => r.id),
    ),
  ]);
  const base = `/w/${ws}/monitors`;
  /** A link to this list with some parameters changed; defaults are left out so links stay short. */
  const href = (change: Partial<Record<keyof MonitorListQuery, string | number | undefined>>) => {
    const next = { ...query, ...change } as Record<string, unknown>;
    const defaults = MonitorListQuery.parse({});
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next))
      if (v !== undefined && v !== "" && v !== (defaults as Record<string, unknown>)[k]) p.set(k, String(v));
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  const filtered = Boolean(query.q || query.status || query.kind || query.tag || query.region);
  const regions = [...new Map(locations.map((l) => [l.region, l])).keys()];
  const newLink = (
    <Link href={`${base}/new`} className={buttonClass()}>
      <Plus className="size-4" aria-hidden />
      New monitor
    </Link>
  );
  return (
    <>
      <AutoRefresh />
      <PageHeader
        title="Monitors"
        description="Checks run by your private locations, and heartbeats your jobs send. Status updates live."
        action={m.role === "viewer" ? undefined : <MonitorsActions workspaceId={m.workspace.id} />}
      />
      {one(sp.deleted) ? (
        <div className="mb-4">
          <Notice tone="indigo">Monitor #{one(sp.deleted)} was deleted.</Notice>
        </div>
      ) : null}
      {page.workspaceTotal === 0 ? (
        <Card>
          <Empty icon={<Plus className="size-5" aria-hidden />} title="No monitors yet">
            Create your first monitor; it turns green here as soon as a probe checks it (or a heartbeat gets its first ping).
            <div className="mt-4">{newLink}</div>
          </Empty>
        </Card>
      ) : (
        <Card>
          <form
            method="get"
            action={base}
            className="flex flex-wrap items-end gap-3 border-b border-zinc-100 px-5 py-3"
            aria-label="Search and filter monitors"
          >
            <label htmlFor="q" className="grid min-w-56 flex-1 gap-1 text-xs text-zinc-500">
              Search name or URL
              <span className="relative">
                <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-400" aria-hidden />
                <Input id="q" name="q" type="search" defaultValue={query.q} placeholder="api, example.com, db:5432…" className="pl-8" />
              </span>
            </label>
            <FilterSelect
              name="status"
              label="Status"
              any="Any status"
              value={query.status}
              options={MONITOR_HEALTH.map((h) => [h, HEALTH_LABEL[h]])}
              className="w-36"
            />
            <FilterSelect
              name="kind"
              label="Kind"
              any="Any kind"
              value={query.kind}
              options={CHECK_KINDS.map((k) => [k, k.toUpperCase()])}
              className="w-28"
            />
            {tags.length > 0 || query.tag ? (
              <FilterSelect
                name="tag"
                label="Tag"
                any="Any tag"
                value={query.tag}
                options={[...new Set([...tags, ...(query.tag ? [query.tag] : [])])].map((t) => [t, t])}
                className="w-40"
              />
            ) : null}
            <FilterSelect
              name="region"
              label="Location"
              any="Any location"
              value={query.region}
              options={regions.map((r) => [r, regionLabel(r)])}
              className="w-48"
            />
            <input type="hidden" name="sort" value={query.sort} />
            <input type="hidden" name="dir" value={query.dir} />
            <Button variant="secondary">Apply</Button>
            {filtered ? (
              <Link
                href={href({ q: undefined, status: undefined, kind: undefined, tag: undefined, region: undefined, page: undefined })}
                className={buttonClass("ghost")}
              >
                Clear
              </Link>
            ) : null}
          </form>
          {page.rows.length === 0 ? (
            <Empty icon={<SearchX className="size-5" aria-hidden />} title="No monitor matches">
              Nothing among {page.workspaceTotal} monitors matches these filters.{" "}
              <Link className="font-medium text-indigo-700 underline" href={base}>
                Show all
              </Link>
            </Empty>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" aria-label="Monitors">
                <thead className="border-b border-zinc-100 text-xs uppercase tracking-wide text-zinc-500">
                  <tr>
                    {COLUMNS.map((c) => {
                      const current = c.sort === query.sort;
                      const Arrow = query.dir === "asc" ? ArrowUp : ArrowDown;
                      return (
                        <th
                          key={c.label}
                          scope="col"
                          className={`px-5 py-2.5 font-medium whitespace-nowrap ${c.className ?? ""}`}
                          aria-sort={current ? (query.dir === "asc" ? "ascending" : "descending") : undefined}
                        >
                          {c.sort ? (
                            <Link
                              href={href({ sort: c.sort, dir: current && query.dir === "asc" ? "desc" : "asc", page: undefined })}
                              className="inline-flex items-center gap-1 hover:text-zinc-900"
                            >
                              {c.label}
                              {current ? <Arrow className="size-3" aria-hidden /> : null}
                            </Link>
                          ) : (
                            c.label
                          )}
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100">
                  {page.rows.map((r) => {
                    const spark = sparks?.get(r.id);
                    const hb = glance.get(r.id);
                    const alert = alerts.get(r.id);
                    return (
                      <tr key={r.id} data-monitor={r.id} className="hover:bg-zinc-50/60">
                        <td className={`${td} max-w-sm`}>
                          <Link href={`${base}/${r.id}`} className="font-medium text-zinc-900 hover:underline">
                            {r.name}
                          </Link>
                          <span className="block truncate font-mono text-xs text-zinc-500" title={r.target}>
                            <span className="mr-1.5 rounded bg-zinc-100 px-1 py-px font-sans text-[10px] font-semibold text-zinc-600">
                              {r.kind.toUpperCase()}
                            </span>
                            {r.target}
                          </span>
                          <CertDays notAfter={r.certNotAfter} />
                          {r.tags.length > 0 ? (
                            <span className="mt-1 flex flex-wrap gap-1">
                              {r.tags.map((t) => (
                                <Link
                                  key={t}
                                  href={href({ tag: t, page: undefined })}
                                  className="rounded-full bg-indigo-50 px-1.5 py-px text-[11px] text-indigo-700 hover:bg-indigo-100"
                                  title={`Only monitors tagged ${t}`}
                                >
                                  {t}
                                </Link>
                              ))}
                            </span>
                          ) : null}
                        </td>
                        <td className={td}>
                          {hb ? (
                            <HeartbeatGlance health={r.health} state={hb.state} />
                          ) : (
                            <HealthWithLocations health={r.health} locations={r.locations} now={now} tipId={`health-${r.id}`} />
                          )}
                          {hb
                            ? null
                            : offline
                                .filter((l) => r.regions.includes(l.region))
                                .map((l) => (
                                  <span
                                    key={l.locationId}
                                    data-testid="offline-mark"
                                    className="mt-1 flex items-center gap-1 text-xs text-amber-700"
                                  >
                                    <CloudOff className="size-3.5 shrink-0" aria-hidden />
                                    {l.name} offline · {l.lastSeenAt === null ? "never reported" : `last report ${ago(l.lastSeenAt, now)}`}
                                  </span>
                                ))}
                          {alert?.acknowledged ? (
                            <span className="mt-1 flex items-center gap-1 text-xs text-emerald-700">
                              <CheckCheck className="size-3.5" aria-hidden />
                              acknowledged
                            </span>
                          ) : alert && m.role !== "viewer" ? (
                            <AckButton workspaceId={ws} monitorId={r.id} monitorName={r.name || `#${r.id}`} compact />
                          ) : alert ? (
                            <span className="mt-1 block text-xs text-red-700">not acknowledged</span>
                          ) : null}
                        </td>
                        <td className={`${td} hidden whitespace-nowrap text-zinc-600 sm:table-cell`}>
                          {hb ? (
                            <>
                              {hb.lastPingAt ? ago(hb.lastPingAt, now) : "no ping yet"}
                              <span className="block text-xs text-zinc-400">last ping</span>
                            </>
                          ) : (
                            <>
                              {r.lastCheckAt ? ago(r.lastCheckAt, now) : "never"}
                              <span className="block text-xs text-zinc-400">every {r.frequency}</span>
                            </>
                          )}
                        </td>
                        <td className={`${td} text-right tabular-nums text-zinc-700`}>
                          {r.latencyMs === null ? "—" : `${r.latencyMs} ms`}
                        </td>
                        <td className={`${td} hidden text-right tabular-nums text-zinc-700 md:table-cell`}>
                          {r.kind === "heartbeat" ? "—" : uptimes.get(r.id) == null ? "no data" : pct(uptimes.get(r.id))}
                        </td>
                        <td className={`${td} hidden lg:table-cell`}>
                          {sparks ? <Sparkline points={spark?.points ?? []} label={`${r.name}: latency over 24 hours`} /> : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <nav
            aria-label="Pages"
            className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 px-5 py-3 text-sm text-zinc-600"
          >
            <span>
              {page.total === 0
                ? "0 monitors"
                : `${(page.page - 1) * page.perPage + 1}–${Math.min(page.page * page.perPage, page.total)} of ${page.total} monitor${page.total === 1 ? "" : "s"}`}
              {filtered ? ` (filtered from ${page.workspaceTotal})` : ""}
            </span>
            <span className="flex items-center gap-2">
              {page.page > 1 ? (
                <Link href={href({ page: page.page - 1 })} className={buttonClass("secondary", "h-8")} rel="prev">
                  <ChevronLeft className="size-4" aria-hidden />
                  Previous
                </Link>
              ) : null}
              <span>
                Page {page.page} of {page.pages}
              </span>
              {page.page < page.pages ? (
                <Link href={href({ page: page.page + 1 })} className={buttonClass("secondary", "h-8")} rel="next">
                  Next
                  <ChevronRight className="size-4" aria-hidden />
                </Link>
              ) : null}
            </span>
          </nav>
        </Card>
      )}
    </>
  );
}

/** One filter of the list: a labelled select whose empty choice means "any". */
function FilterSelect({
  name,
  label,
  any,
  value,
  options,
  className,
}: {
  name: string;
  label: string;
  any: string;
  value: string | undefined;
  options: [string, string][];
  className: string;
}) {
  return (
    <label htmlFor={name} className="grid gap-1 text-xs text-zinc-500">
      {label}
      <Select id={name} name={name} defaultValue={value ?? ""} className={className}>
        <option value="">{any}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </label>
  );
}
