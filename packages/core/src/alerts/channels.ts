import { type Channel, ChannelInput, ChannelPatch, DeliveryTimeout, keepSecret, originOf } from "@vigil/api-contract";
import { type Conn, type Db, monitor, monitorChannel, notificationChannel } from "@vigil/db-schema";
import { assertWithinLimits, type LimitCheck } from "@vigil/limits";
import { type ChannelKind, channels, redactConfig, validateChannelConfig } from "@vigil/notifier";
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { getWorkspace, limitsOf } from "../access";
import { type Actor, audited, auditInsert } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";

type Row = typeof notificationChannel.$inferSelect;

// The bodies the API and the dashboard's forms accept are the contract's.
export { ChannelInput, ChannelPatch, DeliveryTimeout };

/** A channel as the API shows it (secrets in `config` shown as "***"), with its kind narrowed. */
export type ChannelView = Channel & { kind: ChannelKind };

const toView = (row: Row, monitors: number[]): ChannelView => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  config: redactConfig(row.kind, row.config),
  enabled: row.enabled,
  timeoutMs: row.timeoutMs,
  failingSince: row.failingSince,
  monitors,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The limits a channel of `kind` touches; `total` counts channels after the write. */
function channelChecks(kind: ChannelKind, total: number): LimitCheck[] {
  const checks: LimitCheck[] = [
    { kind: "feature", key: "notifications" },
    { kind: "count", key: "notification-channels", total },
  ];
  if (kind === "sms" || kind === "whatsapp") checks.push({ kind: "feature", key: "sms" });
  if (kind === "pagerduty") checks.push({ kind: "feature", key: "incident-alerting" });
  return checks;
}

function validConfig(kind: ChannelKind, config: unknown): Record<string, unknown> {
  const v = validateChannelConfig(kind, config);
  if (!v.ok) {
    const issues = v.issues.map((i) => ({ path: i.path === "kind" ? "kind" : `config${i.path ? `.${i.path}` : ""}`, message: i.message }));
    throw new ValidationError(`${issues[0]!.path} ${issues[0]!.message}`, issues);
  }
  // Store what the user sent (validated), not the parsed form with defaults, so edits round-trip.
  return config as Record<string, unknown>;
}

/**
 * "***" in an edit keeps the stored secret, at the top level and one level down (header maps), but
 * only while the kind's destination URL keeps its origin: a stored secret never follows a new host.
 */
function keepSecrets(kind: ChannelKind, next: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const { destination: field, secrets } = channels[kind] as { destination?: string; secrets: readonly string[] };
  const to = field ? { stored: asUrl(stored[field]), draft: asUrl(next[field]) } : { stored: null, draft: null };
  const issues: { path: string; message: string }[] = [];
  const keep = (path: string, s: unknown, v: unknown) => {
    const kept = keepSecret(s, v, to);
    if ("refused" in kept) issues.push({ path: `config.${path}`, message: kept.refused });
    return "value" in kept ? kept.value : v;
  };
  const out = Object.fromEntries(
    Object.entries(next).map(([k, v]) => {
      const s = stored[k];
      if (!secrets.includes(k)) return [k, v];
      if (v && typeof v === "object" && !Array.isArray(v)) {
        const inner = s && typeof s === "object" ? (s as Record<string, unknown>) : {};
        return [k, Object.fromEntries(Object.entries(v).map(([hk, hv]) => [hk, keep(`${k}.${hk}`, inner[hk], hv)]))];
      }
      return [k, keep(k, s, v)];
    }),
  );
  if (issues.length > 0) throw new ValidationError(`${issues[0]!.path}: ${issues[0]!.message}`, issues);
  return out;
}

const asUrl = (v: unknown) => (typeof v === "string" ? v : null);

/** The origin a channel sends to (no path, no query: a Slack-style URL is itself the secret), or null when the operator fixes it. */
export function channelDestination(kind: ChannelKind, config: Record<string, unknown>): string | null {
  const field = channels[kind].destination ?? Object.keys(config).find((k) => /url$/i.test(k));
  return field ? originOf(asUrl(config[field])) : null;
}

async function linkedMonitors(tx: Conn, channelIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(channelIds.map((id) => [id, []]));
  if (channelIds.length === 0) return out;
  const rows = await tx
    .select({ channelId: monitorChannel.channelId, monitorId: monitorChannel.monitorId })
    .from(monitorChannel)
    .innerJoin(monitor, eq(monitor.id, monitorChannel.monitorId))
    .where(and(inArray(monitorChannel.channelId, channelIds), isNull(monitor.deletedAt)))
    .orderBy(monitorChannel.monitorId);
  for (const r of rows) out.get(r.channelId)?.push(r.monitorId);
  return out;
}

async function setLinks(tx: Conn, workspaceId: number, channelId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length > 0) {
    const found = await tx
      .select({ id: monitor.id })
      .from(monitor)
      .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt), inArray(monitor.id, unique)));
    const ok = new Set(found.map((f) => f.id));
    const missing = unique.findIndex((id) => !ok.has(id));
    if (missing >= 0)
      throw new ValidationError(`monitors.${missing} no monitor ${unique[missing]}`, [
        { path: `monitors.${missing}`, message: `no monitor ${unique[missing]} in this workspace` },
      ]);
  }
  await tx.delete(monitorChannel).where(eq(monitorChannel.channelId, channelId));
  if (unique.length > 0) await tx.insert(monitorChannel).values(unique.map((monitorId) => ({ monitorId, channelId })));
}

async function assertNameFree(tx: Conn, workspaceId: number, channelName: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: notificationChannel.id })
    .from(notificationChannel)
    .where(and(eq(notificationChannel.workspaceId, workspaceId), eq(notificationChannel.name, channelName)));
  if (clash && clash.id !== exceptId) throw new ConflictError(`a notification channel named "${channelName}" already exists`);
}

export async function createChannel(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<ChannelView> {
  const input = parseInput(ChannelInput, raw, "channel");
  const config = validConfig(input.kind, keepSecrets(input.kind, input.config, {}));
  const row = await audited(db, workspaceId, actor, async (tx, audit) => {
    const ws = await getWorkspace(tx, workspaceId);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(notificationChannel)
      .where(eq(notificationChannel.workspaceId, workspaceId));
    assertWithinLimits(limitsOf(ws).limits, channelChecks(input.kind, n + 1));
    await assertNameFree(tx, workspaceId, input.name);
    const [created] = await tx
      .insert(notificationChannel)
      .values({ workspaceId, name: input.name, kind: input.kind, config, enabled: input.enabled, timeoutMs: input.timeoutMs })
      .returning();
    if (input.monitors) await setLinks(tx, workspaceId, created!.id, input.monitors);
    await audit({
      action: "channel.create",
      targetType: "channel",
      targetId: created!.id,
      metadata: { kind: input.kind, name: input.name },
    });
    return created!;
  });
  return toView(row, (await linkedMonitors(db, [row.id])).get(row.id) ?? []);
}

async function getRow(tx: Conn, workspaceId: number, id: number): Promise<Row> {
  const [row] = await tx
    .select()
    .from(notificationChannel)
    .where(and(eq(notificationChannel.id, id), eq(notificationChannel.workspaceId, workspaceId)));
  if (!row) throw new NotFoundError("notification channel", id);
  return row;
}

export async function getChannel(db: Db, workspaceId: number, id: number): Promise<ChannelView> {
  const row = await getRow(db, workspaceId, id);
  return toView(row, (await linkedMonitors(db, [id])).get(id) ?? []);
}

/** The stored channel with its secrets, for sending only. */
export async function getChannelForSending(db: Db, workspaceId: number, id: number): Promise<Row> {
  return getRow(db, workspaceId, id);
}

export async function listChannels(db: Db, workspaceId: number): Promise<ChannelView[]> {
  const rows = await db
    .select()
    .from(notificationChannel)
    .where(eq(notificationChannel.workspaceId, workspaceId))
    .orderBy(notificationChannel.id);
  const links = await linkedMonitors(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, links.get(r.id) ?? []));
}

export async function updateChannel(db: Db, workspaceId: number, id: number, raw: unknown, actor: Actor): Promise<ChannelView> {
  const patch = parseInput(ChannelPatch, raw, "channel");
  await audited(db, workspaceId, actor, async (tx, audit) => {
    const row = await getRow(tx, workspaceId, id);
    const set: Partial<typeof notificationChannel.$inferInsert> = { updatedAt: Date.now() };
    if (patch.name !== undefined && patch.name !== row.name) {
      await assertNameFree(tx, workspaceId, patch.name, id);
      set.name = patch.name;
    }
    if (patch.timeoutMs !== undefined) set.timeoutMs = patch.timeoutMs;
    if (patch.config !== undefined) set.config = validConfig(row.kind, keepSecrets(row.kind, patch.config, row.config));
    if (patch.enabled !== undefined) {
      set.enabled = patch.enabled;
      // Re-enabling is the user saying "try again": clear the failing mark.
      if (patch.enabled) set.failingSince = null;
    }
    await tx.update(notificationChannel).set(set).where(eq(notificationChannel.id, id));
    if (patch.monitors) await setLinks(tx, workspaceId, id, patch.monitors);
    await audit({
      action: "channel.update",
      targetType: "channel",
      targetId: id,
      metadata: { fields: Object.keys(patch) },
    });
  });
  return getChannel(db, workspaceId, id);
}

export async function deleteChannel(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  const res = await db
    .delete(notificationChannel)
    .where(and(eq(notificationChannel.id, id), eq(notificationChannel.workspaceId, workspaceId)))
    .returning({ id: notificationChannel.id });
  if (res.length === 0) throw new NotFoundError("notification channel", id);
  await auditInsert(db, { workspaceId, actor, action: "channel.delete", targetType: "channel", targetId: id });
}
