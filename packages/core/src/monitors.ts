import {
  type CheckDefinition,
  type Frequency,
  frequencyMs,
  isSecretHeader,
  type Monitor,
  type MonitorHealth,
  MonitorInput,
  type MonitorInputRaw,
  REDACTED,
  toCheckDefinition,
} from "@vigil/api-contract";
import { type Conn, type Db, monitor, monitorChannel, notificationChannel, privateLocation } from "@vigil/db-schema";
import { assertWithinLimits, type LimitCheck } from "@vigil/limits";
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Actor, auditInsert } from "./audit";
import { ConflictError, NotFoundError, ValidationError } from "./errors";
import { getWorkspace, limitsOf } from "./workspace";

type Row = typeof monitor.$inferSelect;

const redactHeaders = (h: Record<string, string> | null | undefined) =>
  h ? Object.fromEntries(Object.keys(h).map((k) => [k, REDACTED])) : {};

/** Request headers with secret values (by name, or marked by the user) shown as "***". */
const redactSecretHeaders = (h: Record<string, string>, marked: readonly string[]) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, isSecretHeader(k, marked) ? REDACTED : v]));

/** "***" sent back for a header keeps the value stored under that name (names compare case-insensitively). */
function keepStored(given: Record<string, string>, stored: Record<string, string> | null | undefined): Record<string, string> {
  const byName = new Map(Object.entries(stored ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === REDACTED ? (byName.get(k.toLowerCase()) ?? "") : v]));
}

/**
 * A stored row as the API shows it: OTLP header values and secret request headers never leave
 * the server. `reveal` is for the probe, which needs the real values to run the check.
 */
/** The private locations of a workspace as health needs them. */
export type LocationCoverage = readonly { region: string; online: boolean }[];

export function monitorHealth(row: Pick<Row, "active" | "regions" | "status">, locations: LocationCoverage): MonitorHealth {
  if (!row.active) return "paused";
  const serving = locations.filter((l) => row.regions.includes(l.region));
  if (serving.length === 0) return "no-probe";
  if (!serving.some((l) => l.online)) return "no-data";
  return row.status === "active" ? "ok" : row.status;
}

async function coverage(db: Conn, workspaceId: number): Promise<LocationCoverage> {
  return db
    .select({ region: privateLocation.region, online: privateLocation.online })
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)));
}

export function toMonitor(
  row: Row,
  channels: string[],
  { reveal = false, locations = [] }: { reveal?: boolean; locations?: LocationCoverage } = {},
): Monitor {
  const common = {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    frequency: row.frequency as Frequency,
    active: row.active,
    public: row.public,
    regions: row.regions as Monitor["regions"],
    retry: row.retry,
    timeout: row.timeoutMs,
    degradedAfter: row.degradedAfterMs,
    openTelemetry: row.otelEndpoint ? { endpoint: row.otelEndpoint, headers: redactHeaders(row.otelHeaders) } : null,
    channels,
    status: row.status,
    health: monitorHealth(row, locations),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (row.kind === "tcp") return { ...common, kind: "tcp", request: { host: row.host ?? "", port: row.port ?? 0 } };
  return {
    ...common,
    kind: "http",
    request: {
      url: row.url ?? "",
      method: (row.method ?? "GET") as "GET",
      headers: reveal ? (row.headers ?? {}) : redactSecretHeaders(row.headers ?? {}, row.secretHeaders ?? []),
      ...(row.secretHeaders?.length ? { secretHeaders: row.secretHeaders } : {}),
      body: row.body ?? undefined,
      followRedirects: row.followRedirects ?? true,
    },
    assertions: (row.assertions ?? []) as Extract<Monitor, { kind: "http" }>["assertions"],
  };
}

/** The input that would produce this monitor (for PATCH merges and apply diffs). */
export function toInput(m: Monitor): MonitorInput {
  const base = {
    key: m.key ?? undefined,
    name: m.name || undefined,
    description: m.description,
    frequency: m.frequency,
    active: m.active,
    public: m.public,
    regions: m.regions,
    retry: m.retry,
    timeout: m.timeout,
    degradedAfter: m.degradedAfter ?? undefined,
    openTelemetry: m.openTelemetry ?? undefined,
    channels: m.channels,
  };
  return m.kind === "tcp"
    ? { ...base, kind: "tcp", request: m.request }
    : { ...base, kind: "http", request: m.request, assertions: m.assertions };
}

function toColumns(input: MonitorInput, previous?: Row) {
  // "***" is what the API shows for a stored secret; sending it back keeps the stored value.
  const otelHeaders = input.openTelemetry ? keepStored(input.openTelemetry.headers, previous?.otelHeaders) : null;
  const http = input.kind === "http" ? input : undefined;
  const tcp = input.kind === "tcp" ? input : undefined;
  return {
    key: input.key ?? null,
    name: input.name ?? input.key ?? "",
    description: input.description,
    kind: input.kind,
    frequency: input.frequency,
    active: input.active,
    public: input.public,
    regions: [...new Set(input.regions)],
    retry: input.retry,
    timeoutMs: input.timeout,
    degradedAfterMs: input.degradedAfter ?? null,
    url: http?.request.url ?? null,
    method: http?.request.method ?? null,
    headers: http ? keepStored(http.request.headers, previous?.headers) : null,
    secretHeaders: http?.request.secretHeaders?.length ? [...new Set(http.request.secretHeaders)] : null,
    body: http?.request.body ?? null,
    followRedirects: http?.request.followRedirects ?? null,
    assertions: http?.assertions ?? null,
    host: tcp?.request.host ?? null,
    port: tcp?.request.port ?? null,
    otelEndpoint: input.openTelemetry?.endpoint ?? null,
    otelHeaders,
  };
}

function parseMonitor(raw: unknown, path: string): MonitorInput {
  const r = MonitorInput.safeParse(raw);
  if (r.success) {
    if (r.data.degradedAfter !== undefined && r.data.degradedAfter >= r.data.timeout) {
      throw new ValidationError(`${path ? `${path}.` : ""}degradedAfter must be less than timeout`, [
        { path: [path, "degradedAfter"].filter(Boolean).join("."), message: `must be less than timeout (${r.data.timeout} ms)` },
      ]);
    }
    return r.data;
  }
  const issues = r.error.issues.map((i) => ({ path: [path, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
  const { path: at, message } = issues[0]!;
  // Union messages already name their field ("kind must be http or tcp").
  const last = at.split(".").at(-1) ?? "";
  throw new ValidationError(
    last && message.startsWith(`${last} `) ? `${at}${message.slice(last.length)}` : `${at || "monitor"} ${message}`,
    issues,
  );
}

function limitChecks(inputs: MonitorInput[], total: number): LimitCheck[] {
  return [
    { kind: "count", key: "monitors", total },
    ...inputs.flatMap((m): LimitCheck[] => [
      { kind: "periodicity", frequency: m.frequency },
      { kind: "regions", regions: m.regions },
    ]),
  ];
}

async function channelIdsByName(tx: Conn, workspaceId: number, inputs: { input: MonitorInput; path: string }[]) {
  const names = [...new Set(inputs.flatMap(({ input }) => input.channels ?? []))];
  if (names.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ id: notificationChannel.id, name: notificationChannel.name })
    .from(notificationChannel)
    .where(and(eq(notificationChannel.workspaceId, workspaceId), inArray(notificationChannel.name, names)));
  const map = new Map(rows.map((r) => [r.name, r.id]));
  const issues = inputs.flatMap(({ input, path }) =>
    (input.channels ?? [])
      .map((name, i) => ({ name, i }))
      .filter(({ name }) => !map.has(name))
      .map(({ name, i }) => ({
        path: [path, "channels", String(i)].filter(Boolean).join("."),
        message: `no notification channel named "${name}"`,
      })),
  );
  if (issues.length > 0) throw new ValidationError(`${issues[0]!.path} ${issues[0]!.message}`, issues);
  return map;
}

async function assertKeysFree(tx: Conn, workspaceId: number, inputs: { input: MonitorInput; path: string }[], exceptId?: number) {
  const seen = new Map<string, string>();
  for (const { input, path } of inputs) {
    if (!input.key) continue;
    const other = seen.get(input.key);
    if (other !== undefined)
      throw new ValidationError(`${path}.key "${input.key}" is used twice`, [
        { path: `${path}.key`, message: `"${input.key}" is also used by ${other}` },
      ]);
    seen.set(input.key, path);
  }
  const keys = [...seen.keys()];
  if (keys.length === 0) return;
  const taken = await tx
    .select({ id: monitor.id, key: monitor.key })
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt), inArray(monitor.key, keys)));
  const clash = taken.find((t) => t.id !== exceptId);
  if (clash) throw new ConflictError(`a monitor with key "${clash.key}" already exists (id ${clash.id}); use apply to update it`);
}

async function activeCount(tx: Conn, workspaceId: number): Promise<number> {
  const [r] = await tx
    .select({ n: count() })
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  return r?.n ?? 0;
}

async function channelNamesFor(tx: Conn, monitorIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return out;
  const rows = await tx
    .select({ monitorId: monitorChannel.monitorId, name: notificationChannel.name })
    .from(monitorChannel)
    .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
    .where(inArray(monitorChannel.monitorId, monitorIds))
    .orderBy(notificationChannel.name);
  for (const r of rows) out.get(r.monitorId)?.push(r.name);
  return out;
}

async function linkChannels(tx: Conn, monitorId: number, input: MonitorInput, byName: Map<string, number>, replace: boolean) {
  if (input.channels === undefined) return;
  if (replace) await tx.delete(monitorChannel).where(eq(monitorChannel.monitorId, monitorId));
  const ids = [...new Set(input.channels.map((n) => byName.get(n)!))];
  if (ids.length > 0)
    await tx
      .insert(monitorChannel)
      .values(ids.map((channelId) => ({ monitorId, channelId })))
      .onConflictDoNothing();
}

/** Creates every monitor or none: one invalid or over-limit entry creates nothing. */
export async function createMonitors(db: Db, workspaceId: number, raw: unknown[], actor: Actor): Promise<Monitor[]> {
  const inputs = raw.map((r, i) => ({
    input: parseMonitor(r, raw.length === 1 ? "" : `monitors.${i}`),
    path: raw.length === 1 ? "" : `monitors.${i}`,
  }));
  const created = await db.transaction(
    async (tx) => {
      const ws = await getWorkspace(tx, workspaceId);
      const existing = await activeCount(tx, workspaceId);
      assertWithinLimits(
        limitsOf(ws).limits,
        limitChecks(
          inputs.map((x) => x.input),
          existing + inputs.length,
        ),
      );
      await assertKeysFree(tx, workspaceId, inputs);
      const byName = await channelIdsByName(tx, workspaceId, inputs);
      // 100 monitors per statement: the write lock is held for a few round trips, not one per monitor.
      const rows: Row[] = [];
      for (let i = 0; i < inputs.length; i += 100) {
        const chunk = inputs.slice(i, i + 100).map(({ input }) => ({ workspaceId, ...toColumns(input) }));
        rows.push(...(await tx.insert(monitor).values(chunk).returning()).sort((a, b) => a.id - b.id));
      }
      for (const [i, { input }] of inputs.entries()) await linkChannels(tx, rows[i]!.id, input, byName, false);
      await auditInsert(tx, {
        workspaceId,
        actor,
        action: "monitor.create",
        targetType: "monitor",
        targetId: rows.map((r) => r.id).join(","),
        metadata: { count: rows.length },
      });
      return rows;
    },
    { behavior: "immediate" },
  );
  const names = await channelNamesFor(
    db,
    created.map((r) => r.id),
  );
  const locations = await coverage(db, workspaceId);
  return created.map((r) => toMonitor(r, names.get(r.id) ?? [], { locations }));
}

export async function createMonitor(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<Monitor> {
  return (await createMonitors(db, workspaceId, [raw], actor))[0]!;
}

async function getRow(tx: Conn, workspaceId: number, id: number): Promise<Row> {
  const [row] = await tx
    .select()
    .from(monitor)
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  if (!row) throw new NotFoundError("monitor", id);
  return row;
}

export async function getMonitor(db: Db, workspaceId: number, id: number): Promise<Monitor> {
  const row = await getRow(db, workspaceId, id);
  return toMonitor(row, (await channelNamesFor(db, [id])).get(id) ?? [], { locations: await coverage(db, workspaceId) });
}

export async function listMonitors(db: Db, workspaceId: number): Promise<Monitor[]> {
  const rows = await db
    .select()
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)))
    .orderBy(monitor.id);
  const names = await channelNamesFor(
    db,
    rows.map((r) => r.id),
  );
  const locations = await coverage(db, workspaceId);
  return rows.map((r) => toMonitor(r, names.get(r.id) ?? [], { locations }));
}

/** PATCH: top-level fields replace, `request` merges one level deep; the result is validated whole. */
export async function updateMonitor(db: Db, workspaceId: number, id: number, patch: unknown, actor: Actor): Promise<Monitor> {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw new ValidationError("monitor: body must be a JSON object", [{ path: "", message: "must be a JSON object" }]);
  }
  const updated = await db.transaction(
    async (tx) => {
      const row = await getRow(tx, workspaceId, id);
      const current = toInput(toMonitor(row, (await channelNamesFor(tx, [id])).get(id) ?? []));
      const p = patch as Record<string, unknown>;
      const merged: Record<string, unknown> = { ...current, ...p };
      if (p.request && typeof p.request === "object" && !Array.isArray(p.request) && (p.kind === undefined || p.kind === current.kind)) {
        merged.request = { ...current.request, ...(p.request as object) };
      }
      const input = parseMonitor(merged, "");
      const ws = await getWorkspace(tx, workspaceId);
      assertWithinLimits(limitsOf(ws).limits, limitChecks([input], await activeCount(tx, workspaceId)));
      await assertKeysFree(tx, workspaceId, [{ input, path: "" }], id);
      const byName = await channelIdsByName(tx, workspaceId, [{ input, path: "" }]);
      const [next] = await tx
        .update(monitor)
        .set({ ...toColumns(input, row), version: sql`${monitor.version} + 1`, updatedAt: Date.now() })
        .where(eq(monitor.id, id))
        .returning();
      await linkChannels(tx, id, input, byName, true);
      await auditInsert(tx, {
        workspaceId,
        actor,
        action: "monitor.update",
        targetType: "monitor",
        targetId: id,
        metadata: { fields: Object.keys(p) },
      });
      return next!;
    },
    { behavior: "immediate" },
  );
  return toMonitor(updated, (await channelNamesFor(db, [id])).get(id) ?? [], { locations: await coverage(db, workspaceId) });
}

export async function deleteMonitor(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  const res = await db
    .update(monitor)
    .set({ deletedAt: Date.now(), updatedAt: Date.now(), version: sql`${monitor.version} + 1` })
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)))
    .returning({ id: monitor.id });
  if (res.length === 0) throw new NotFoundError("monitor", id);
  await auditInsert(db, { workspaceId, actor, action: "monitor.delete", targetType: "monitor", targetId: id });
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );

export interface ApplyPlan {
  create: string[];
  update: string[];
  delete: string[];
  unchanged: string[];
  applied: boolean;
}

/** Makes the workspace's keyed monitors match `raw` (matched by entry key), in one transaction. */
export async function applyMonitors(
  db: Db,
  workspaceId: number,
  raw: unknown[],
  opts: { prune?: boolean; dryRun?: boolean },
  actor: Actor,
): Promise<ApplyPlan> {
  const inputs = raw.map((r, i) => ({ input: parseMonitor(r, `monitors.${i}`), path: `monitors.${i}` }));
  const missingKey = inputs.find((x) => !x.input.key);
  if (missingKey)
    throw new ValidationError(`${missingKey.path}.key is required to apply`, [
      { path: `${missingKey.path}.key`, message: "is required to apply" },
    ]);
  return db.transaction(
    async (tx) => {
      const rows = await tx
        .select()
        .from(monitor)
        .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
      const names = await channelNamesFor(
        tx,
        rows.map((r) => r.id),
      );
      const byKey = new Map(rows.filter((r) => r.key).map((r) => [r.key!, r]));
      const plan: ApplyPlan = { create: [], update: [], delete: [], unchanged: [], applied: false };
      const wanted = new Set(inputs.map((x) => x.input.key!));
      for (const { input } of inputs) {
        const row = byKey.get(input.key!);
        if (!row) plan.create.push(input.key!);
        else {
          const cols = toColumns(input, row);
          const same =
            Object.entries(cols).every(([k, v]) => stable(v) === stable(row[k as keyof Row])) &&
            (input.channels === undefined || stable([...new Set(input.channels)].sort()) === stable(names.get(row.id) ?? []));
          if (same) {
            plan.unchanged.push(input.key!);
          } else plan.update.push(input.key!);
        }
      }
      if (opts.prune) for (const key of byKey.keys()) if (!wanted.has(key)) plan.delete.push(key);

      const ws = await getWorkspace(tx, workspaceId);
      const total = rows.length + plan.create.length - plan.delete.length;
      assertWithinLimits(
        limitsOf(ws).limits,
        limitChecks(
          inputs.map((x) => x.input),
          total,
        ),
      );
      const byName = await channelIdsByName(tx, workspaceId, inputs);
      if (opts.dryRun) return plan;

      const now = Date.now();
      for (const { input } of inputs) {
        const row = byKey.get(input.key!);
        if (!row) {
          const [created] = await tx
            .insert(monitor)
            .values({ workspaceId, ...toColumns(input) })
            .returning({ id: monitor.id });
          await linkChannels(tx, created!.id, input, byName, false);
        } else if (plan.update.includes(input.key!)) {
          await tx
            .update(monitor)
            .set({ ...toColumns(input, row), version: sql`${monitor.version} + 1`, updatedAt: now })
            .where(eq(monitor.id, row.id));
          await linkChannels(tx, row.id, input, byName, true);
        }
      }
      for (const key of plan.delete) {
        await tx
          .update(monitor)
          .set({ deletedAt: now, updatedAt: now, version: sql`${monitor.version} + 1` })
          .where(eq(monitor.id, byKey.get(key)!.id));
      }
      await auditInsert(tx, {
        workspaceId,
        actor,
        action: "monitor.apply",
        targetType: "monitor",
        metadata: { create: plan.create, update: plan.update, delete: plan.delete },
      });
      plan.applied = true;
      return plan;
    },
    { behavior: "immediate" },
  );
}

export interface ProbeMonitor {
  id: number;
  name: string;
  frequency: Frequency;
  intervalMs: number;
  version: number;
  check: CheckDefinition;
  openTelemetry: { endpoint: string; headers: Record<string, string> } | null;
}

/** The active monitors a location runs: those of its workspace that list its region. */
export async function monitorsForLocation(db: Db, location: { workspaceId: number; region: string }): Promise<ProbeMonitor[]> {
  const rows = await db
    .select()
    .from(monitor)
    .where(and(eq(monitor.workspaceId, location.workspaceId), isNull(monitor.deletedAt), eq(monitor.active, true)))
    .orderBy(monitor.id);
  return rows
    .filter((r) => r.regions.includes(location.region))
    .map((r) => ({
      id: r.id,
      name: r.name,
      frequency: r.frequency as Frequency,
      intervalMs: frequencyMs(r.frequency as Frequency),
      version: r.version,
      check: toCheckDefinition(toInput(toMonitor({ ...r, otelHeaders: null }, [], { reveal: true }))),
      openTelemetry: r.otelEndpoint ? { endpoint: r.otelEndpoint, headers: r.otelHeaders ?? {} } : null,
    }));
}

/** Changes whenever any monitor of the workspace is created, changed or deleted. */
export async function monitorsEtag(db: Db, workspaceId: number, region: string): Promise<string> {
  const [r] = await db
    .select({
      n: count(),
      last: sql<number>`coalesce(max(${monitor.updatedAt}), 0)`,
      versions: sql<number>`coalesce(sum(${monitor.version}), 0)`,
    })
    .from(monitor)
    .where(eq(monitor.workspaceId, workspaceId));
  return `"${region}-${r?.n ?? 0}-${r?.last ?? 0}-${r?.versions ?? 0}"`;
}

export type { MonitorInputRaw };
