// The ping path: a job's ping found by its token's hash and stored in one write, and the ping server's liveness.
import { randomBytes } from "node:crypto";
import { type Db, heartbeat, heartbeatPing, monitor, pingReceiver, writeBatch } from "@vigil/db-schema";
import { lt, type SQL, sql } from "drizzle-orm";
import { sha256 } from "../secrets";

/** What the first 10 kB of a ping's body keep; the rest is read and dropped, never refused. */
export const MAX_PING_BODY_BYTES = 10_000;
/** Tokens are 32 base64url characters; anything else is answered like an unknown token without a lookup. */
export const PING_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

export type PingSignal = { kind: "success" } | { kind: "start" } | { kind: "fail"; exitCode?: number };

export interface Ping {
  /** The heartbeat's token, or its id when it was found another way (by name). */
  to: { token: string } | { monitorId: number };
  signal: PingSignal;
  at: number;
  sourceIp: string | null;
  userAgent: string | null;
  body: string | null;
}

/** One ping's two statements: a row in the log, then the heartbeat's last run moved on by that row alone. */
function pingStatements(p: Ping): [SQL, SQL] {
  const target = "token" in p.to ? sql`${heartbeat.tokenHash} = ${sha256(p.to.token)}` : sql`${heartbeat.monitorId} = ${p.to.monitorId}`;
  const { kind } = p.signal;
  const exitCode = p.signal.kind === "fail" ? (p.signal.exitCode ?? null) : null;
  const live = sql`exists (select 1 from ${monitor} where ${monitor.id} = ${heartbeat.monitorId} and ${monitor.active} = 1 and ${monitor.deletedAt} is null)`;
  const duration =
    kind === "start" ? sql`null` : sql`case when ${heartbeat.startedAt} is not null then ${p.at} - ${heartbeat.startedAt} end`;
  const insert = sql`insert into ${heartbeatPing} (monitor_id, at, kind, exit_code, source_ip, user_agent, body, duration_ms)
    select ${heartbeat.monitorId}, ${p.at}, ${kind}, ${exitCode}, ${p.sourceIp}, ${p.userAgent}, ${p.body}, ${duration}
    from ${heartbeat} where ${target} and ${live} returning id`;
  // The row just inserted, by this connection, for this heartbeat: nothing moves when the insert found no live token.
  const mine = sql`exists (select 1 from ${heartbeatPing} where ${heartbeatPing.id} = last_insert_rowid() and ${heartbeatPing.monitorId} = ${heartbeat.monitorId} and ${heartbeatPing.at} = ${p.at})`;
  const update =
    kind === "start"
      ? sql`update ${heartbeat} set started_at = ${p.at}, last_ping_id = last_insert_rowid() where ${target} and ${mine}`
      : sql`update ${heartbeat} set last_ping_id = last_insert_rowid(), last_ping_at = ${p.at}, last_failed = ${kind === "fail" ? 1 : 0}, started_at = null where ${target} and ${mine}`;
  return [insert, update];
}

/**
 * Stores pings in one atomic write, in order: for each, a row in the log and its heartbeat's last run moved
 * on, only if the token belongs to an active monitor that is not deleted. Says per ping whether it was
 * stored (false: nothing written, so an unknown, paused or deleted token looks the same from outside).
 * Deadlines and statuses are decided later by workflows from what is stored here.
 */
export async function recordPings(db: Db, pings: readonly Ping[]): Promise<boolean[]> {
  const results = await writeBatch(db, pings.flatMap(pingStatements));
  return pings.map((_, i) => results[2 * i]!.rows.length > 0);
}

export const recordPing = async (db: Db, p: Ping): Promise<boolean> => (await recordPings(db, [p]))[0]!;

/**
 * Group commit for the ping server: a ping is written at once when nothing else is being written, and
 * pings that arrive meanwhile go together in the next write. One write per burst instead of one per ping
 * keeps a ping's wait near one round trip to the database however many jobs ping at once.
 */
export class PingWriter {
  private pending: { ping: Ping; resolve: (stored: boolean) => void; reject: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly maxPerWrite = 250,
  ) {}

  record(ping: Ping): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ping, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    if (this.writing || this.pending.length === 0) return;
    this.writing = true;
    const batch = this.pending.splice(0, this.maxPerWrite);
    recordPings(
      this.db,
      batch.map((b) => b.ping),
    )
      .then(
        (stored) => {
          for (const [i, b] of batch.entries()) b.resolve(stored[i]!);
        },
        (err) => {
          for (const b of batch) b.reject(err);
        },
      )
      .finally(() => {
        this.writing = false;
        this.flush();
      });
  }
}

/** A heartbeat's token row, which pings are stored against; made on first need. */
export async function ensureHeartbeatRow(db: Db, monitorId: number): Promise<void> {
  const token = randomBytes(24).toString("base64url");
  await db
    .insert(heartbeat)
    .values({ monitorId, token, tokenHash: sha256(token) })
    .onConflictDoNothing();
}

/**
 * Written by each ping server every second under its own id: since when it has been able to store pings
 * without a gap, and through when every ping it received is stored. Workflows combine the live rows
 * (combineReceivers) and alert on a missed deadline only once every live server vouches past it. Rows of
 * servers gone for a day are dropped on the way.
 */
export async function markReceiverAlive(db: Db, upSince: number, aliveAt = Date.now(), receiverId = 1): Promise<void> {
  await writeBatch(db, [
    db
      .insert(pingReceiver)
      .values({ id: receiverId, upSince, aliveAt })
      .onConflictDoUpdate({ target: pingReceiver.id, set: { upSince, aliveAt } }),
    db.delete(pingReceiver).where(lt(pingReceiver.aliveAt, aliveAt - 86_400_000)),
  ]);
}
