// A heartbeat as its owner sees it: the ping URL (its token made on first need), the ping log, what is expected next.
import { randomBytes } from "node:crypto";
import { pingUrlOf, type Schedule } from "@vigil/api-contract";
import { type Conn, type Db, heartbeat, heartbeatPing, monitor, pingReceiver } from "@vigil/db-schema";
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { ValidationError } from "../errors";
import { getMonitor } from "../monitors";
import { sha256 } from "../secrets";
import { combineReceivers, deadlineOf } from "./deadlines";
import { ensureHeartbeatRow } from "./pings";

const newToken = () => randomBytes(24).toString("base64url");

/** The heartbeat's token, made once; a monitor of another kind is refused. */
async function tokenOf(db: Db, workspaceId: number, monitorId: number): Promise<string> {
  const m = await getMonitor(db, workspaceId, monitorId);
  if (m.kind !== "heartbeat")
    throw new ValidationError(`monitor ${monitorId} is a ${m.kind} monitor, not a heartbeat`, [
      { path: "kind", message: "must be heartbeat" },
    ]);
  await ensureHeartbeatRow(db, monitorId);
  const [row] = await db.select({ token: heartbeat.token }).from(heartbeat).where(eq(heartbeat.monitorId, monitorId));
  return row!.token;
}

/** A new token: the old ping URL answers 404 from now on. */
export async function rotatePingToken(db: Db, workspaceId: number, monitorId: number): Promise<string> {
  await tokenOf(db, workspaceId, monitorId);
  const token = newToken();
  await db
    .update(heartbeat)
    .set({ token, tokenHash: sha256(token) })
    .where(eq(heartbeat.monitorId, monitorId));
  return token;
}

export interface PingLogEntry {
  id: number;
  at: number;
  kind: "success" | "start" | "fail";
  exitCode: number | null;
  sourceIp: string | null;
  userAgent: string | null;
  body: string | null;
  durationMs: number | null;
}

export interface HeartbeatDetails {
  monitorId: number;
  pingUrl: string;
  /** `new` until the first ping; `late` past the expected time but within grace; `down` past the deadline. */
  state: "new" | "up" | "running" | "late" | "down" | "paused";
  lastPingAt: number | null;
  startedAt: number | null;
  /** When the next ping is expected, and when silence becomes an error. */
  nextExpectedAt: number | null;
  deadlineAt: number | null;
  /** Set when a deadline passed while the ping server was away and was moved on instead of alerting. */
  rearmedAt: number | null;
  /** False when the ping server has not been heard from lately: no ping can arrive, no deadline fires. */
  receiverUp: boolean;
  pings: PingLogEntry[];
}

/** The ping URL, state and newest pings (before `before`, an id, for paging) of one heartbeat of the workspace. */
export async function heartbeatDetails(
  db: Db,
  workspaceId: number,
  monitorId: number,
  { limit = 50, before, nowMs = Date.now() }: { limit?: number; before?: number; nowMs?: number } = {},
): Promise<HeartbeatDetails> {
  const token = await tokenOf(db, workspaceId, monitorId);
  const m = await getMonitor(db, workspaceId, monitorId);
  const [[h], pings, receivers] = await db.batch([
    db.select().from(heartbeat).where(eq(heartbeat.monitorId, monitorId)),
    db
      .select()
      .from(heartbeatPing)
      .where(and(eq(heartbeatPing.monitorId, monitorId), before !== undefined ? lt(heartbeatPing.id, before) : undefined))
      .orderBy(desc(heartbeatPing.id))
      .limit(Math.min(Math.max(limit, 1), 200)),
    db.select().from(pingReceiver),
  ]);
  const grace = m.kind === "heartbeat" ? m.request.grace : 0;
  const schedule: Schedule | null =
    m.kind !== "heartbeat"
      ? null
      : m.request.cron !== undefined
        ? { cron: m.request.cron, timezone: m.request.timezone ?? "UTC", graceMs: grace }
        : { periodMs: m.request.period ?? 60_000, graceMs: grace };
  const pinged = { lastPingAt: h?.lastPingAt ?? null, startedAt: h?.startedAt ?? null };
  // The stored deadline is set by workflows a moment after a ping and cleared once a miss is recorded; until
  // then, and after, the pings themselves tell it.
  const deadlineAt = h?.deadlineAt ?? (schedule ? deadlineOf({ schedule, ...pinged }) : null);
  const running = h?.startedAt != null && (h.lastPingAt === null || h.startedAt >= h.lastPingAt);
  // A started run's finishing ping is due by its deadline; otherwise the next ping is due a grace before it.
  const nextExpectedAt = deadlineAt === null ? null : running ? deadlineAt : deadlineAt - grace;
  const state: HeartbeatDetails["state"] = !m.active
    ? "paused"
    : m.status === "error"
      ? "down"
      : !h || (h.lastPingAt === null && h.startedAt === null)
        ? "new"
        : nextExpectedAt !== null && nowMs > nextExpectedAt
          ? "late"
          : running
            ? "running"
            : "up";
  return {
    monitorId,
    pingUrl: pingUrlOf(token),
    state,
    lastPingAt: h?.lastPingAt ?? null,
    startedAt: running ? h!.startedAt : null,
    nextExpectedAt,
    deadlineAt,
    rearmedAt: h?.rearmedAt ?? null,
    receiverUp: combineReceivers(receivers, nowMs) !== null,
    pings: pings.map((p) => ({
      id: p.id,
      at: p.at,
      kind: p.kind,
      exitCode: p.exitCode,
      sourceIp: p.sourceIp,
      userAgent: p.userAgent,
      body: p.body,
      durationMs: p.durationMs,
    })),
  };
}

/** "late" (past the expected ping, within grace) or "new" (no ping yet) at a glance for a list, with the last ping. */
export async function heartbeatGlance(db: Conn, monitorIds: number[], nowMs = Date.now()) {
  type Glance = { state: "late" | "new" | null; lastPingAt: number | null };
  if (monitorIds.length === 0) return new Map<number, Glance>();
  const rows = await db
    .select({
      id: heartbeat.monitorId,
      deadlineAt: heartbeat.deadlineAt,
      grace: monitor.hbGraceMs,
      lastPingAt: heartbeat.lastPingAt,
      startedAt: heartbeat.startedAt,
    })
    .from(heartbeat)
    .innerJoin(monitor, eq(monitor.id, heartbeat.monitorId))
    .where(inArray(heartbeat.monitorId, monitorIds));
  const out = new Map<number, Glance>(monitorIds.map((id) => [id, { state: "new", lastPingAt: null }]));
  for (const r of rows)
    out.set(r.id, {
      state:
        r.lastPingAt === null && r.startedAt === null
          ? "new"
          : r.deadlineAt !== null && nowMs > r.deadlineAt - (r.grace ?? 0)
            ? "late"
            : null,
      lastPingAt: r.lastPingAt ?? r.startedAt,
    });
  return out;
}
