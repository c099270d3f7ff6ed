// Read models behind the dashboard's monitor list and detail pages, one file because each is one read-only query: filtered, sorted and paged in SQL
// so a workspace with thousands of monitors answers one page at a time.
import {
  CHECK_KINDS,
  type CheckDefinition,
  type CheckKindName,
  kindOf,
  MONITOR_HEALTH,
  type MonitorHealth,
  monitorTarget,
  Tag,
  toCheckDefinition,
} from "@vigil/api-contract";
import {
  checkResult,
  type Db,
  incident,
  monitor,
  monitorLocationStatus,
  notificationChannel,
  notificationDelivery,
  privateLocation,
  statusEvent,
} from "@vigil/db-schema";
import { and, asc, count, desc, eq, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { DeliveryOutcome } from "../alerts";
import { NotFoundError } from "../errors";
import { toInput, toMonitor } from "./mapping";
import { targetColumns } from "./queries";

export const MONITOR_SORTS = ["name", "status", "last-check", "latency", "created"] as const;

/** The list's search parameters; anything malformed falls back to its default instead of failing the page. */
export const MonitorListQuery = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  status: z.enum(MONITOR_HEALTH).optional().catch(undefined),
  kind: z.enum(CHECK_KINDS).optional().catch(undefined),
  tag: Tag.optional().catch(undefined),
  region: z
    .string()
    .regex(/^[a-z]{3}$|^private$/)
    .optional()
    .catch(undefined),
  sort: z.enum(MONITOR_SORTS).catch("status").default("status"),
  dir: z.enum(["asc", "desc"]).catch("asc").default("asc"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  perPage: z.coerce.number().int().min(10).max(100).catch(25).default(25),
});
export type MonitorListQuery = z.infer<typeof MonitorListQuery>;

export interface LocationState {
  locationId: number;
  name: string;
  region: string;
  online: boolean;
  status: "success" | "degraded" | "error" | null;
  cronTimestamp: number | null;
  latencyMs: number | null;
  statusCode: number | null;
  errorMessage: string | null;
}

export interface MonitorListRow {
  id: number;
  key: string | null;
  name: string;
  kind: CheckKindName;
  target: string;
  tags: string[];
  frequency: string;
  regions: string[];
  health: MonitorHealth;
  lastCheckAt: number | null;
  latencyMs: number | null;
  /** When the soonest TLS certificate its locations last saw ends (HTTPS and TLS monitors), epoch ms. */
  certNotAfter: number | null;
  locations: LocationState[];
}

export interface MonitorListPage {
  rows: MonitorListRow[];
  total: number;
  page: number;
  pages: number;
  perPage: number;
  /** Monitors in the workspace before any filter (tells "no monitors yet" from "nothing matches"). */
  workspaceTotal: number;
}

/** Kinds the server watches itself (heartbeats): no probe coverage applies, as in monitorHealth. */
const SERVER_SIDE = CHECK_KINDS.filter((k) => kindOf(k).serverSide);

const SEVERITY: Record<MonitorHealth, number> = { error: 0, degraded: 1, "no-data": 2, "no-probe": 3, ok: 4, paused: 5 };

/**
 * The health `monitorHealth` computes, as SQL over the workspace's probe coverage. `regions` is a JSON
 * array of region codes: a region serves the monitor when `"code"` is in its text, far cheaper than
 * json_each when 10,000 monitors are sorted by health.
 */
function healthSql(locations: readonly { region: string; online: boolean }[]): SQL<MonitorHealth> {
  const servedBy = (regions: string[]) =>
    regions.length === 0
      ? sql`0`
      : sql`(${sql.join(
          [...new Set(regions)].map((r) => sql`${monitor.regions} like ${`%${JSON.stringify(r)}%`}`),
          sql` or `,
        )})`;
  return sql<MonitorHealth>`case
    when ${monitor.active} = 0 then 'paused'
    when ${monitor.kind} in (${sql.join(
      SERVER_SIDE.map((k) => sql`${k}`),
      sql`, `,
    )}) then (case when ${monitor.status} = 'active' then 'ok' else ${monitor.status} end)
    when not ${servedBy(locations.map((l) => l.region))} then 'no-probe'
    when not ${servedBy(locations.filter((l) => l.online).map((l) => l.region))} then 'no-data'
    when ${monitor.status} = 'active' then 'ok'
    else ${monitor.status} end`;
}

const lastCheckSql = sql<number | null>`(select max(s.cron_timestamp) from ${monitorLocationStatus} s where s.monitor_id = ${monitor.id})`;
const latencySql = sql<
  number | null
>`(select s.latency_ms from ${monitorLocationStatus} s where s.monitor_id = ${monitor.id} order by s.cron_timestamp desc limit 1)`;

/** The soonest end among the certificates the monitor's locations last saw (HTTPS and TLS checks). */
const certNotAfterSql = sql<
  number | null
>`(select min(s.cert_not_after) from ${monitorLocationStatus} s where s.monitor_id = ${monitor.id})`;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function workspaceLocations(db: Db, workspaceId: number) {
  return db
    .select({ id: privateLocation.id, name: privateLocation.name, region: privateLocation.region, online: privateLocation.online })
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)))
    .orderBy(privateLocation.name);
}

/** Each monitor's latest result per location. */
async function latestResults(db: Db, monitorIds: readonly number[]) {
  if (monitorIds.length === 0) return [];
  return db
    .select()
    .from(monitorLocationStatus)
    .where(inArray(monitorLocationStatus.monitorId, [...monitorIds]));
}

/** The latest result of each location serving each monitor (probes of the monitor's regions, with or without a result). */
function locationStates(
  monitors: readonly { id: number; regions: readonly string[] }[],
  locations: Awaited<ReturnType<typeof workspaceLocations>>,
  latest: Awaited<ReturnType<typeof latestResults>>,
): Map<number, LocationState[]> {
  const out = new Map<number, LocationState[]>();
  const byKey = new Map(latest.map((s) => [`${s.monitorId}:${s.locationId}`, s]));
  for (const m of monitors) {
    out.set(
      m.id,
      locations
        .filter((l) => m.regions.includes(l.region))
        .map((l) => {
          const s = byKey.get(`${m.id}:${l.id}`);
          return {
            locationId: l.id,
            name: l.name,
            region: l.region,
            online: l.online,
            status: s?.status ?? null,
            cronTimestamp: s?.cronTimestamp ?? null,
            latencyMs: s?.latencyMs ?? null,
            statusCode: s?.statusCode ?? null,
            errorMessage: s?.errorMessage ?? null,
          };
        }),
    );
  }
  return out;
}

/** One page of a workspace's monitors, searched, filtered and sorted in the database. */
export async function listMonitorPage(db: Db, workspaceId: number, query: Partial<MonitorListQuery> = {}): Promise<MonitorListPage> {
  const q = MonitorListQuery.parse(query);
  const locations = await workspaceLocations(db, workspaceId);
  const health = healthSql(locations);
  const base = and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt));
  const like = `%${likeEscape(q.q)}%`;
  const where = and(
    base,
    q.q
      ? sql`(${monitor.name} like ${like} escape '\\' or ${monitor.url} like ${like} escape '\\' or ${monitor.host} like ${like} escape '\\' or ${monitor.key} like ${like} escape '\\')`
      : undefined,
    q.kind ? eq(monitor.kind, q.kind) : undefined,
    // Tags are JSON strings of characters JSON never escapes, so `"tag"` in the text is exact (and cheaper than json_each).
    q.tag ? sql`instr(${monitor.tags}, ${JSON.stringify(q.tag)}) > 0` : undefined,
    q.region ? sql`exists (select 1 from json_each(${monitor.regions}) r where r.value = ${q.region})` : undefined,
    q.status ? sql`${health} = ${q.status}` : undefined,
  );
  const dir = q.dir === "desc" ? desc : asc;
  const severity = sql`case ${health} ${sql.join(
    Object.entries(SEVERITY).map(([h, n]) => sql`when ${h} then ${sql.raw(String(n))}`),
    sql` `,
  )} end`;
  const order: SQL[] = {
    name: [dir(sql`lower(${monitor.name})`)],
    status: [dir(severity), asc(sql`lower(${monitor.name})`)],
    "last-check": [dir(sql`coalesce(${lastCheckSql}, 0)`)],
    latency: [dir(sql`coalesce(${latencySql}, -1)`)],
    created: [dir(monitor.id)],
  }[q.sort];

  // The page's ids first: sorting 10,000 monitors carries only the sort key, and the per-row lookups below
  // run for the page's rows alone. The count runs alongside; a page past the end is asked again.
  const idsOf = (page: number) =>
    db
      .select({ id: monitor.id })
      .from(monitor)
      .where(where)
      .orderBy(...order, asc(monitor.id))
      .limit(q.perPage)
      .offset((page - 1) * q.perPage);
  const [[totals], [all], firstIds] = await Promise.all([
    db.select({ n: count() }).from(monitor).where(where),
    q.q || q.kind || q.tag || q.region || q.status ? db.select({ n: count() }).from(monitor).where(base) : Promise.resolve([undefined]),
    idsOf(q.page),
  ]);
  const total = totals?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / q.perPage));
  const page = Math.min(q.page, pages);
  const ids = (page === q.page ? firstIds : await idsOf(page)).map((r) => r.id);
  const [found, latest] = await Promise.all([
    ids.length === 0
      ? []
      : db
          .select({
            id: monitor.id,
            key: monitor.key,
            name: monitor.name,
            ...targetColumns,
            frequency: monitor.frequency,
            regions: monitor.regions,
            tags: monitor.tags,
            health,
            lastCheckAt: lastCheckSql,
            latencyMs: latencySql,
            certNotAfter: certNotAfterSql,
          })
          .from(monitor)
          .where(inArray(monitor.id, ids)),
    latestResults(db, ids),
  ]);
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  const states = locationStates(rows, locations, latest);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      key: r.key,
      name: r.name || r.key || `#${r.id}`,
      kind: r.kind,
      target: monitorTarget(r),
      tags: r.tags,
      frequency: r.frequency,
      regions: r.regions,
      health: r.health,
      lastCheckAt: r.lastCheckAt === null ? null : Number(r.lastCheckAt),
      latencyMs: r.latencyMs === null ? null : Number(r.latencyMs),
      certNotAfter: r.certNotAfter === null ? null : Number(r.certNotAfter),
      locations: states.get(r.id) ?? [],
    })),
    total,
    page,
    pages,
    perPage: q.perPage,
    workspaceTotal: all?.n ?? total,
  };
}

/** Every tag used in the workspace, sorted, for the list's tag filter. */
export async function workspaceTags(db: Db, workspaceId: number): Promise<string[]> {
  const rows = await db.all<{ tag: string }>(
    sql`select distinct t.value as tag from ${monitor}, json_each(${monitor.tags}) t
        where ${monitor.workspaceId} = ${workspaceId} and ${monitor.deletedAt} is null and ${monitor.tags} != '[]' order by 1`,
  );
  return rows.map((r) => r.tag);
}

/** The regions a workspace has probes in, for the list's location filter. */
export async function probeRegions(db: Db, workspaceId: number) {
  return workspaceLocations(db, workspaceId);
}

/** Each location serving the monitor with its latest result. The caller has checked the monitor is the workspace's. */
export async function monitorLocationStates(db: Db, workspaceId: number, m: { id: number; regions: readonly string[] }) {
  const [locations, latest] = await Promise.all([workspaceLocations(db, workspaceId), latestResults(db, [m.id])]);
  return locationStates([m], locations, latest).get(m.id) ?? [];
}

export interface ResultRow {
  id: string;
  cronTimestamp: number;
  locationId: number;
  location: string;
  region: string;
  status: "success" | "degraded" | "error";
  statusCode: number | null;
  latencyMs: number;
  errorMessage: string | null;
}

/** A monitor's results, newest first, a page at a time (`before` = the last row's slot of the previous page). */
export async function recentResults(
  db: Db,
  workspaceId: number,
  monitorId: number,
  opts: { before?: number; limit?: number } = {},
): Promise<{ rows: ResultRow[]; next: number | null }> {
  const limit = opts.limit ?? 20;
  const rows = await db
    .select({
      id: sql<string>`cast(${checkResult.id} as text)`,
      cronTimestamp: checkResult.cronTimestamp,
      locationId: checkResult.locationId,
      location: sql<string>`coalesce(${privateLocation.name}, ${checkResult.region})`,
      region: checkResult.region,
      status: checkResult.status,
      statusCode: checkResult.statusCode,
      latencyMs: checkResult.latencyMs,
      errorMessage: checkResult.errorMessage,
    })
    .from(checkResult)
    .leftJoin(privateLocation, eq(privateLocation.id, checkResult.locationId))
    .where(
      and(
        eq(checkResult.monitorId, monitorId),
        eq(checkResult.workspaceId, workspaceId),
        opts.before === undefined ? undefined : lt(checkResult.cronTimestamp, opts.before),
      ),
    )
    .orderBy(desc(checkResult.cronTimestamp), asc(checkResult.locationId))
    .limit(limit + 1);
  // Rows of one slot stay on one page: the cursor is a slot, so a page may run a little over `limit`.
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { rows: page, next: more ? page.at(-1)!.cronTimestamp : null };
}

export interface EventDelivery {
  channel: string;
  attempt: number;
  outcome: DeliveryOutcome;
  responseCode: number | null;
  error: string | null;
  at: number;
}

export interface MonitorEvent {
  id: number;
  status: "degraded" | "error" | "recovered";
  previousStatus: "active" | "degraded" | "error";
  cronTimestamp: number;
  at: number;
  statusCode: number | null;
  latencyMs: number | null;
  errorMessage: string | null;
  suppressed: boolean;
  deliveries: EventDelivery[];
}

/** A monitor's status events, newest first, each with the alert deliveries it caused. */
export async function monitorEvents(db: Db, workspaceId: number, monitorId: number, limit = 20): Promise<MonitorEvent[]> {
  const events = await db
    .select()
    .from(statusEvent)
    .where(and(eq(statusEvent.monitorId, monitorId), eq(statusEvent.workspaceId, workspaceId)))
    .orderBy(desc(statusEvent.cronTimestamp), desc(statusEvent.id))
    .limit(limit);
  const ids = events.map((e) => e.id);
  const deliveries =
    ids.length === 0
      ? []
      : await db
          .select({
            eventId: notificationDelivery.eventId,
            channel: notificationChannel.name,
            attempt: notificationDelivery.attempt,
            outcome: notificationDelivery.outcome,
            responseCode: notificationDelivery.responseCode,
            error: notificationDelivery.error,
            at: notificationDelivery.createdAt,
          })
          .from(notificationDelivery)
          .innerJoin(notificationChannel, eq(notificationChannel.id, notificationDelivery.channelId))
          .where(inArray(notificationDelivery.eventId, ids))
          .orderBy(asc(notificationDelivery.id));
  return events.map((e) => ({
    id: e.id,
    status: e.status,
    previousStatus: e.previousStatus,
    cronTimestamp: e.cronTimestamp,
    at: e.createdAt,
    statusCode: e.statusCode,
    latencyMs: e.latencyMs,
    errorMessage: e.errorMessage,
    suppressed: e.suppressed,
    deliveries: deliveries.filter((d) => d.eventId === e.id).map(({ eventId: _, ...d }) => d),
  }));
}

export interface MonitorIncident {
  id: number;
  startedAt: number;
  resolvedAt: number | null;
  /** Until resolution, or until `now` while open. */
  durationMs: number;
  cause: string | null;
}

/** A monitor's incidents, newest first. */
export async function monitorIncidents(
  db: Db,
  workspaceId: number,
  monitorId: number,
  limit = 10,
  now = Date.now(),
): Promise<MonitorIncident[]> {
  const rows = await db
    .select()
    .from(incident)
    .where(and(eq(incident.monitorId, monitorId), eq(incident.workspaceId, workspaceId)))
    .orderBy(desc(incident.startedAt))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    startedAt: r.startedAt,
    resolvedAt: r.resolvedAt,
    durationMs: (r.resolvedAt ?? now) - r.startedAt,
    cause: r.cause,
  }));
}

/** A saved monitor as a probe runs it (secret header values included: they never leave the server side). */
export async function monitorCheck(
  db: Db,
  workspaceId: number,
  id: number,
): Promise<{ regions: string[]; check: CheckDefinition; target: string }> {
  const [row] = await db
    .select()
    .from(monitor)
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  if (!row) throw new NotFoundError("monitor", id);
  return {
    regions: row.regions,
    check: toCheckDefinition(toInput(toMonitor({ ...row, otelHeaders: null }, [], { reveal: true }))),
    target: monitorTarget(row),
  };
}

/** When the soonest certificate the monitor's locations last saw ends (epoch ms), or null for none. */
export async function certificateNotAfter(db: Db, workspaceId: number, monitorId: number): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | null>`min(${monitorLocationStatus.certNotAfter})` })
    .from(monitorLocationStatus)
    .innerJoin(monitor, eq(monitor.id, monitorLocationStatus.monitorId))
    .where(and(eq(monitorLocationStatus.monitorId, monitorId), eq(monitor.workspaceId, workspaceId)));
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}
