// Over 300 lines: one server page that reads a monitor's whole state (results, alerts, deliveries, SLA) in one pass.
import { monitorTarget, pingUrlOf } from "@vigil/api-contract";
import {
  acknowledgementsOf,
  certificateNotAfter,
  dependenciesOf,
  getMonitor,
  heartbeatDetails,
  listMembers,
  monitorEvents,
  monitorIncidents,
  monitorLocationStates,
  NotFoundError,
  offlineLocations,
  recentResults,
} from "@vigil/core";
import { ArrowLeft, BellOff, BellRing, CheckCheck, Download, Gauge, ListX, Pencil, ShieldCheck } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AckButton } from "../../../../../features/alerts/ack-button";
import { HeartbeatPanel, HeartbeatState } from "../../../../../features/heartbeats/heartbeat-panel";
import { CertDays } from "../../../../../features/monitors/cert-days";
import { AutoRefresh } from "../../../../../features/monitors/charts";
import { one, pct } from "../../../../../features/monitors/figures";
import { durationText } from "../../../../../features/monitors/form/draft";
import { HEALTH_HINT, HealthBadge } from "../../../../../features/monitors/health";
import { HeldAlert } from "../../../../../features/monitors/held-alert";
import { LatencyCard, OfflineBanner } from "../../../../../features/monitors/latency-card";
import { MonitorActions } from "../../../../../features/monitors/monitor-buttons";
import { latencyChart, measuredUptimes, RANGES, rangeOf } from "../../../../../features/monitors/series";
import { getDb } from "../../../../../lib/db";
import { getEnv } from "../../../../../lib/env";
import { actorLabel, ago, dateTime, duration } from "../../../../../lib/format";
import { regionLabel } from "../../../../../lib/regions";
import { memberOf } from "../../../../../lib/session";
import { Badge, buttonClass, Card, CardHeader, cx, Empty, Table, td } from "../../../../../ui/ui";

export const metadata = { title: "Monitor" };

type Params = Record<string, string | string[] | undefined>;
const resultTone = { success: "green", degraded: "amber", error: "red" } as const;
const eventTone = { error: "red", degraded: "amber", recovered: "green" } as const;
const outcomeTone = { sent: "green", sending: "indigo", retrying: "amber", error: "zinc", failed: "red", suppressed: "zinc" } as const;

export default async function MonitorDetail({
  params,
  searchParams,
}: {
  params: Promise<{ ws: string; id: string }>;
  searchParams: Promise<Params>;
}) {
  const { ws: wsParam, id: idParam } = await params;
  const m = await memberOf(wsParam);
  if (!/^\d{1,15}$/.test(idParam)) notFound();
  const db = getDb();
  const ws = m.workspace.id;
  const mon = await getMonitor(db, ws, Number(idParam)).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const sp = await searchParams;
  const range = rangeOf(one(sp.range));
  const beforeRaw = one(sp.before);
  const before = beforeRaw && /^\d{1,15}$/.test(beforeRaw) ? Number(beforeRaw) : undefined;
  const now = Date.now();
  const hbMon = mon.kind === "heartbeat" ? mon : null;
  getEnv(); // sets where ping URLs point
  // A heartbeat has no probes, latency or check results: its pings are shown instead.
  const locations = hbMon ? [] : await monitorLocationStates(db, ws, mon);
  const [chart, uptimes, results, events, incidents, certNotAfter, hb, acks, members, parents, offline] = await Promise.all([
    hbMon ? null : latencyChart(ws, mon.id, locations, range, now),
    hbMon ? null : measuredUptimes([mon.id], RANGES[range].ms, now),
    hbMon ? { rows: [], next: null } : recentResults(db, ws, mon.id, { before, limit: 20 }),
    monitorEvents(db, ws, mon.id, 20),
    monitorIncidents(db, ws, mon.id, 10, now),
    certificateNotAfter(db, ws, mon.id),
    hbMon ? heartbeatDetails(db, ws, mon.id, { limit: 50, nowMs: now }) : null,
    acknowledgementsOf(db, ws, mon.id, 20),
    listMembers(db, ws),
    (mon.dependsOn ?? []).length > 0 ? dependenciesOf(db, ws, mon.id) : [],
    hbMon ? [] : offlineLocations(db, ws, mon.regions),
  ]);
  const schedule = hbMon
    ? hbMon.request.cron !== undefined
      ? `cron ${hbMon.request.cron} (${hbMon.request.timezone ?? "UTC"}) · grace ${durationText(hbMon.request.grace)}`
      : `every ${durationText(hbMon.request.period)} · grace ${durationText(hbMon.request.grace)}`
    : "";
  const emails = new Map(members.map((p) => [p.userId, p.email ?? p.userId]));
  const ackOfEvent = new Map(acks.map((a) => [a.eventId, a]));
  const ackOfIncident = new Map(acks.flatMap((a) => (a.incidentId === null ? [] : [[a.incidentId, a] as const])));
  const ackText = (a: (typeof acks)[number]) => `${actorLabel(a.actor, emails)} via ${a.via}, ${ago(a.createdAt, now)}`;
  // The open alert: the newest event, while the monitor is still down or degraded.
  const open = events[0] && events[0].status !== "recovered" && mon.status !== "active" ? events[0] : null;
  const openAck = open ? ackOfEvent.get(open.id) : undefined;
  const base = `/w/${ws}/monitors/${mon.id}`;
  const link = (change: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ range: range === "24h" ? undefined : range, before: before?.toString(), ...change }))
      if (v) p.set(k, v);
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  // What the monitor checks, as alerts name it (the registry's words for every kind but HTTP, which adds its method).
  const target = mon.kind === "http" ? `${mon.request.method} ${mon.request.url}` : monitorTarget(mon);
  return (
    <>
      <AutoRefresh everyMs={5000} />
      <Link href={`/w/${ws}/monitors`} className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-zinc-900">
        <ArrowLeft className="size-4" aria-hidden />
        Monitors
      </Link>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight">{mon.name || mon.key || `#${mon.id}`}</h1>
            <span data-testid="monitor-health">
              {/* A heartbeat's header uses its state card's word (down, late…), not the check health's. */}
              {hb ? <HeartbeatState state={hb.state} /> : <HealthBadge health={mon.health} />}
            </span>
          </div>
          {hbMon ? null : (
            <p className="mt-1 truncate font-mono text-sm text-zinc-600" title={target}>
              {target}
            </p>
          )}
          <CertDays notAfter={certNotAfter} now={now} />
          {parents.length > 0 ? <HeldAlert workspaceId={ws} monitorId={mon.id} /> : null}
          <p className="mt-1 text-sm text-zinc-500">
            {hbMon
              ? `HEARTBEAT · ${schedule} · checked by the server`
              : `${mon.kind.toUpperCase()} · every ${mon.frequency} · ${mon.regions.map(regionLabel).join(", ")} · ${HEALTH_HINT[mon.health]}`}
          </p>
          {mon.remindEvery || mon.escalationPolicy || parents.length > 0 ? (
            <p className="mt-1 text-sm text-zinc-500" data-testid="alert-settings">
              {[
                typeof mon.remindEvery === "number"
                  ? `reminds every ${duration(mon.remindEvery)}`
                  : mon.remindEvery
                    ? "reminds per channel"
                    : null,
                mon.escalationPolicy ? `escalation: ${mon.escalationPolicy}` : null,
              ]
                .filter(Boolean)
                .join(" · ")}
              {parents.length > 0 ? (
                <span data-testid="depends-on">
                  {mon.remindEvery || mon.escalationPolicy ? " · " : ""}
                  depends on{" "}
                  {parents.map((p, i) => (
                    <span key={p.id}>
                      {i > 0 ? ", " : ""}
                      <Link href={`/w/${ws}/monitors/${p.id}`} className="text-zinc-700 underline hover:text-zinc-900">
                        {p.name || p.key || `#${p.id}`}
                      </Link>
                    </span>
                  ))}
                </span>
              ) : null}
            </p>
          ) : null}
          {mon.tags.length > 0 ? (
            <p className="mt-2 flex flex-wrap gap-1">
              {mon.tags.map((t) => (
                <Link
                  key={t}
                  href={`/w/${ws}/monitors?tag=${encodeURIComponent(t)}`}
                  className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs text-indigo-700 hover:bg-indigo-100"
                  title={`Monitors tagged ${t}`}
                >
                  {t}
                </Link>
              ))}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-start gap-2">
          {m.role === "viewer" ? null : (
            <Link href={`${base}/edit`} className={buttonClass("secondary")}>
              <Pencil className="size-4" aria-hidden />
              Edit
            </Link>
          )}
          <Link href={`${base}/sla`} className={buttonClass("secondary")}>
            <Gauge className="size-4" aria-hidden />
            SLA report
          </Link>
          <a href={`/w/${ws}/monitors/export?id=${mon.id}`} className={buttonClass("secondary")} download>
            <Download className="size-4" aria-hidden />
            Export YAML
          </a>
          {m.role === "viewer" ? null : (
            <MonitorActions
              workspaceId={ws}
              monitorId={mon.id}
              active={mon.active}
              name={mon.name || mon.key || `#${mon.id}`}
              checkable={!hbMon}
            />
          )}
        </div>
      </div>

      {open ? (
        <div
          data-testid="alert-ack"
          className={cx(
            "mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border px-5 py-4",
            openAck ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50",
          )}
        >
          <div className="flex items-start gap-3">
            {openAck ? (
              <CheckCheck className="mt-0.5 size-5 text-emerald-700" aria-hidden />
            ) : (
              <BellRing className="mt-0.5 size-5 text-red-700" aria-hidden />
            )}
            <div className="text-sm">
              <p className={cx("font-medium", openAck ? "text-emerald-900" : "text-red-900")}>
                {openAck
                  ? "Acknowledged"
                  : `${open.status === "error" ? "Down" : "Degraded"} since ${dateTime(open.cronTimestamp)}, not acknowledged`}
              </p>
              <p className={openAck ? "text-emerald-800" : "text-red-800"}>
                {openAck
                  ? `By ${ackText(openAck)}. Reminders and escalation have stopped; the recovery is still announced.`
                  : "Reminders and escalation continue until someone acknowledges."}
              </p>
            </div>
          </div>
          {openAck || m.role === "viewer" ? null : <AckButton workspaceId={ws} monitorId={mon.id} />}
        </div>
      ) : null}

      <OfflineBanner locations={offline} />

      {hb && hbMon ? (
        <HeartbeatPanel
          hb={m.role === "viewer" ? { ...hb, pingUrl: "" } : hb}
          schedule={schedule}
          monitorKey={mon.key}
          cron={hbMon.request.cron}
          now={now}
          canPing={m.role !== "viewer"}
          byName={
            m.role !== "viewer" && m.workspace.pingKey && mon.key
              ? `${pingUrlOf(m.workspace.pingKey)}/${encodeURIComponent(mon.key)}`
              : null
          }
        />
      ) : (
        <>
          <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Stat label={`Uptime ${RANGES[range].label}`} value={uptimes?.get(mon.id) == null ? "no data" : pct(uptimes.get(mon.id))} />
            {locations.slice(0, 3).map((l) => (
              <Stat
                key={l.locationId}
                label={`${l.name} · ${regionLabel(l.region)}`}
                value={l.status ? `${l.status}${l.latencyMs !== null ? ` · ${l.latencyMs} ms` : ""}` : "no result yet"}
                tone={l.status === "error" ? "red" : l.status === "degraded" ? "amber" : l.status === "success" ? "green" : undefined}
                detail={`${ago(l.cronTimestamp, now)}${l.online ? "" : " · probe offline"}${l.errorMessage ? ` · ${l.errorMessage}` : ""}`}
              />
            ))}
          </div>

          <LatencyCard
            chart={chart}
            locations={locations}
            range={range}
            regions={mon.regions.map(regionLabel).join(", ")}
            hrefOf={(r) => link({ range: r === "24h" ? undefined : r, before: undefined })}
          />
        </>
      )}

      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Incidents" description="From the first failing check to recovery." />
          {incidents.length === 0 ? (
            <Empty icon={<ShieldCheck className="size-5" aria-hidden />} title="No incidents" />
          ) : (
            <Table head={["Started", "Duration", "State"]}>
              {incidents.map((i) => (
                <tr key={i.id} data-testid="incident">
                  <td className={`${td} whitespace-nowrap`}>{dateTime(i.startedAt)}</td>
                  <td className={`${td} tabular-nums`}>{duration(i.durationMs)}</td>
                  <td className={td}>
                    {i.resolvedAt ? <Badge tone="green">resolved {ago(i.resolvedAt, now)}</Badge> : <Badge tone="red">ongoing</Badge>}
                    {i.cause ? <span className="mt-1 block text-xs text-zinc-500">{i.cause}</span> : null}
                    {ackOfIncident.has(i.id) ? (
                      <span className="mt-1 block text-xs text-emerald-700" data-testid="incident-ack">
                        Acknowledged by {ackText(ackOfIncident.get(i.id)!)}
                      </span>
                    ) : i.resolvedAt ? null : (
                      <span className="mt-1 block text-xs text-red-700">not acknowledged</span>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader title="Status changes and alerts" description="Each change and what every notification channel answered." />
          {events.length === 0 ? (
            <Empty icon={<BellOff className="size-5" aria-hidden />} title="No status changes yet" />
          ) : (
            <ul className="divide-y divide-zinc-100">
              {events.map((e) => (
                <li key={e.id} className="px-5 py-3 text-sm" data-testid="status-event">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={eventTone[e.status]}>{e.status}</Badge>
                    <span className="text-zinc-500">from {e.previousStatus === "active" ? "ok" : e.previousStatus}</span>
                    <span className="ml-auto text-xs text-zinc-500">{dateTime(e.cronTimestamp)}</span>
                  </div>
                  {e.errorMessage ? <p className="mt-1 text-xs text-red-700">{e.errorMessage}</p> : null}
                  {ackOfEvent.has(e.id) ? (
                    <p className="mt-1 text-xs text-emerald-700">Acknowledged by {ackText(ackOfEvent.get(e.id)!)}</p>
                  ) : null}
                  <ul className="mt-1.5 grid gap-1 text-xs text-zinc-600">
                    {e.suppressed ? <li>Alerts held back by a maintenance window.</li> : null}
                    {e.deliveries.length === 0 && !e.suppressed ? <li>No channel alerted (none attached or enabled).</li> : null}
                    {e.deliveries.map((d) => (
                      <li key={`${d.channel}-${d.attempt}-${d.at}`} className="flex flex-wrap items-center gap-1.5">
                        <Badge tone={outcomeTone[d.outcome]}>{d.outcome}</Badge>
                        <span className="font-medium">{d.channel}</span>
                        <span>
                          {d.outcome === "suppressed" ? "" : `attempt ${d.attempt} · `}
                          {d.responseCode ? `HTTP ${d.responseCode} · ` : ""}
                          {ago(d.at, now)}
                        </span>
                        {d.error ? <span className={d.outcome === "suppressed" ? "text-zinc-600" : "text-red-700"}>{d.error}</span> : null}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      {hbMon ? null : (
        <Card>
          <CardHeader title="Recent results" description="Newest first, every location." />
          {results.rows.length === 0 ? (
            <Empty icon={<ListX className="size-5" aria-hidden />} title={before ? "No older results" : "No results yet"} />
          ) : (
            <Table head={["Time", "Location", "Status", "Code", "Latency", "Error"]}>
              {results.rows.map((r) => (
                <tr key={r.id} data-testid="result">
                  <td className={`${td} whitespace-nowrap text-zinc-600`}>{dateTime(r.cronTimestamp).replace(" UTC", "")}</td>
                  <td className={td}>
                    {r.location} <span className="text-xs text-zinc-400">{r.region}</span>
                  </td>
                  <td className={td}>
                    <Badge tone={resultTone[r.status]}>{r.status}</Badge>
                  </td>
                  <td className={`${td} tabular-nums`}>{r.statusCode ?? "—"}</td>
                  <td className={`${td} tabular-nums`}>{r.latencyMs} ms</td>
                  <td className={`${td} max-w-xs truncate text-red-700`} title={r.errorMessage ?? undefined}>
                    {r.errorMessage ?? ""}
                  </td>
                </tr>
              ))}
            </Table>
          )}
          <nav aria-label="Result pages" className="flex justify-end gap-2 border-t border-zinc-100 px-5 py-3">
            {before ? (
              <Link href={link({ before: undefined })} className={buttonClass("secondary", "h-8")}>
                Newest
              </Link>
            ) : null}
            {results.next ? (
              <Link href={link({ before: String(results.next) })} className={buttonClass("secondary", "h-8")} rel="next">
                Older
              </Link>
            ) : null}
          </nav>
        </Card>
      )}
    </>
  );
}

function Stat({ label, value, detail, tone }: { label: string; value: string; detail?: string; tone?: "red" | "amber" | "green" }) {
  const color =
    tone === "red" ? "text-red-700" : tone === "amber" ? "text-amber-700" : tone === "green" ? "text-emerald-700" : "text-zinc-900";
  return (
    <Card className="px-4 py-3">
      <p className="truncate text-xs text-zinc-500">{label}</p>
      <p className={cx("mt-1 text-lg font-semibold tabular-nums", color)}>{value}</p>
      {detail ? (
        <p className="truncate text-xs text-zinc-500" title={detail}>
          {detail}
        </p>
      ) : null}
    </Card>
  );
}
