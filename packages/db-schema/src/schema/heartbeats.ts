// Heartbeats: push monitors, their ping log and the ping receivers.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { encryptedJson } from "./columns";
import { monitor } from "./monitors";

export const PING_KINDS = ["success", "start", "fail"] as const;

/**
 * A heartbeat monitor's ping token and what its pings have told so far. The token is found by its SHA-256
 * (an index seek, never a comparison of secrets) and kept encrypted to be shown again. `deadlineAt` is
 * when silence becomes an error, derived from the stored pings (an open start: start + grace; else the
 * next expected ping + grace); null until the first ping, and once the miss was recorded.
 */
export const heartbeat = sqliteTable(
  "heartbeat",
  {
    monitorId: integer("monitor_id")
      .primaryKey()
      .references(() => monitor.id, { onDelete: "cascade" }),
    token: encryptedJson<string>("heartbeat", "token").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The last finished run: its ping's id and time, and whether it failed. */
    lastPingId: integer("last_ping_id"),
    lastPingAt: integer("last_ping_at"),
    lastFailed: integer("last_failed", { mode: "boolean" }).notNull().default(false),
    /** A run that began (`/start`) and has not finished. */
    startedAt: integer("started_at"),
    deadlineAt: integer("deadline_at"),
    /** The newest ping whose effect on the status was decided. */
    evaluatedPingId: integer("evaluated_ping_id").notNull().default(0),
    /** The monitor version the deadline was computed for; an edit arms a fresh one. */
    monitorVersion: integer("monitor_version").notNull().default(0),
    /** Set when a deadline passed while the ping server was away and was moved on instead of alerting. */
    rearmedAt: integer("rearmed_at"),
  },
  (t) => [index("heartbeat_deadline").on(t.deadlineAt)],
);

/** The ping log: one row per ping received (bodies cut at 10 kB), the newest few hundred per monitor kept. */
export const heartbeatPing = sqliteTable(
  "heartbeat_ping",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    at: integer("at").notNull(),
    kind: text("kind", { enum: PING_KINDS }).notNull(),
    exitCode: integer("exit_code"),
    sourceIp: text("source_ip"),
    userAgent: text("user_agent"),
    body: text("body"),
    /** From the run's start to this ping, when a start was sent. */
    durationMs: integer("duration_ms"),
  },
  (t) => [index("heartbeat_ping_monitor").on(t.monitorId, t.id)],
);

/**
 * The ping server's liveness, written every second: a deadline that passed while it was away (or before it
 * proved itself alive after the deadline) is re-armed rather than alerted on.
 */
export const pingReceiver = sqliteTable("ping_receiver", {
  id: integer("id").primaryKey(),
  upSince: integer("up_since").notNull(),
  aliveAt: integer("alive_at").notNull(),
});
