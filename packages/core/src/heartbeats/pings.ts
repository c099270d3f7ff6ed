// The ping path: a job's ping found by its token's hash and stored in one write, and the ping server's liveness.
import { type Db, heartbeat, heartbeatPing, monitor, pingReceiver, writeBatch } from "@vigil/db-schema";
import { sql } from "drizzle-orm";
import { sha256 } from "../secrets";

/** What the first 10 kB of a ping's body keep; the rest is read and dropped, never refused. */
export const MAX_PING_BODY_BYTES = 10_000;
/** Tokens are 32 base64url characters; anything else is answered like an unknown token without a lookup. */
export const PING_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

export type PingSignal = { kind: "success" } | { kind: "start" } | { kind: "fail"; exitCode?: number };

export interface Ping {
  token: string;
  signal: PingSignal;
  at: number;
  sourceIp: string | null;
  userAgent: string | null;
  body: string | null;
}

/**
 * Stores one ping: a row in the log and the heartbeat's last run moved on, in one atomic write, only if
 * the token belongs to an active monitor that is not deleted. Returns false otherwise (nothing written),
 * so an unknown, paused or deleted token looks the same from outside. Deadlines and statuses are
 * decided later by workflows from what is stored here.
 */
export async function recordPing(db: Db, p: Ping): Promise<boolean> {
  const hash = sha256(p.token);
  const { kind } = p.signal;
  const exitCode = p.signal.kind === "fail" ? (p.signal.exitCode ?? null) : null;
  const live = sql`exists (select 1 from ${monitor} where ${monitor.id} = ${heartbeat.monitorId} and ${monitor.active} = 1 and ${monitor.deletedAt} is null)`;
  const duration =
    kind === "start" ? sql`null` : sql`case when ${heartbeat.startedAt} is not null then ${p.at} - ${heartbeat.startedAt} end`;
  const insert = sql`insert into ${heartbeatPing} (monitor_id, at, kind, exit_code, source_ip, user_agent, body, duration_ms)
    select ${heartbeat.monitorId}, ${p.at}, ${kind}, ${exitCode}, ${p.sourceIp}, ${p.userAgent}, ${p.body}, ${duration}
    from ${heartbeat} where ${heartbeat.tokenHash} = ${hash} and ${live} returning id`;
  // The row just inserted, by this connection, for this heartbeat: nothing moves when the insert found no live token.
  const mine = sql`exists (select 1 from ${heartbeatPing} where ${heartbeatPing.id} = last_insert_rowid() and ${heartbeatPing.monitorId} = ${heartbeat.monitorId} and ${heartbeatPing.at} = ${p.at})`;
  const update =
    kind === "start"
      ? sql`update ${heartbeat} set started_at = ${p.at}, last_ping_id = last_insert_rowid() where ${heartbeat.tokenHash} = ${hash} and ${mine}`
      : sql`update ${heartbeat} set last_ping_id = last_insert_rowid(), last_ping_at = ${p.at}, last_failed = ${kind === "fail" ? 1 : 0}, started_at = null where ${heartbeat.tokenHash} = ${hash} and ${mine}`;
  const [inserted] = await writeBatch(db, [insert, update]);
  return inserted!.rows.length > 0;
}

/**
 * Written by the ping server every second: since when it has been able to store pings without a gap, and
 * that it still can. Workflows alert on a missed deadline only once the server proved alive after it.
 */
export async function markReceiverAlive(db: Db, upSince: number, nowMs = Date.now()): Promise<void> {
  await db
    .insert(pingReceiver)
    .values({ id: 1, upSince, aliveAt: nowMs })
    .onConflictDoUpdate({ target: pingReceiver.id, set: { upSince, aliveAt: nowMs } });
}
