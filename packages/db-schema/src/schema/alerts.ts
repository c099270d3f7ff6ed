// Alerts: channels, incidents, status events, deliveries, escalation, dependencies, timers, acknowledgements.
import { CHANNEL_KINDS, MONITOR_STATUSES } from "@vigil/api-contract";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, encryptedJson, json, updatedAt } from "./columns";
import { monitor } from "./monitors";
import { workspace } from "./workspace";

export { CHANNEL_KINDS };

export const notificationChannel = sqliteTable(
  "notification_channel",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: CHANNEL_KINDS }).notNull(),
    config: encryptedJson<Record<string, unknown>>("notification_channel", "config").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** How long one delivery attempt waits for the receiver's answer before the next attempt is planned. */
    timeoutMs: integer("timeout_ms").notNull().default(10_000),
    failingSince: integer("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("notification_channel_name").on(t.workspaceId, t.name)],
);

export const monitorChannel = sqliteTable(
  "monitor_channel",
  {
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => notificationChannel.id, { onDelete: "cascade" }),
    /** This link's own reminder interval, over the monitor's. */
    remindEveryMs: integer("remind_every_ms"),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.channelId] })],
);

export const EVENT_STATUSES = ["degraded", "error", "recovered"] as const;

export const incident = sqliteTable(
  "incident",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    startedAt: integer("started_at").notNull(),
    acknowledgedAt: integer("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
    resolvedAt: integer("resolved_at"),
    cause: text("cause"),
  },
  (t) => [index("incident_monitor").on(t.monitorId, t.resolvedAt)],
);

/** One row per status change; unique per (monitor, slot, status) so a replayed evaluation adds nothing. */
export const statusEvent = sqliteTable(
  "status_event",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    status: text("status", { enum: EVENT_STATUSES }).notNull(),
    previousStatus: text("previous_status", { enum: MONITOR_STATUSES }).notNull(),
    cronTimestamp: integer("cron_timestamp").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    errorMessage: text("error_message"),
    incidentId: integer("incident_id").references(() => incident.id, { onDelete: "set null" }),
    /** Set when an active maintenance window held back the notifications. */
    suppressed: integer("suppressed", { mode: "boolean" }).notNull().default(false),
    /** Set once a notify job per channel is queued; a sweep queues those still unset after a crash. */
    dispatchedAt: integer("dispatched_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("status_event_slot").on(t.monitorId, t.cronTimestamp, t.status),
    index("status_event_undispatched").on(t.dispatchedAt),
    index("status_event_workspace_time").on(t.workspaceId, t.createdAt),
  ],
);

/**
 * `sending`: the attempt is in flight (a crash leaves it so until the attempt after the restart);
 * `retrying`: it failed and another attempt is due at `nextRetryAt`; `error`: it failed and a later
 * attempt settled the delivery; `failed`: the last attempt failed.
 */
export const DELIVERY_OUTCOMES = ["sent", "sending", "retrying", "error", "failed", "suppressed"] as const;

/** The delivery log: one row per attempt. */
export const notificationDelivery = sqliteTable(
  "notification_delivery",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => statusEvent.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => notificationChannel.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: DELIVERY_OUTCOMES }).notNull(),
    responseCode: integer("response_code"),
    error: text("error"),
    /** When the queue tries again after a retryable failure; null once final. */
    nextRetryAt: integer("next_retry_at"),
    /** 0: the event itself; otherwise the alert_timer (reminder, escalation step) that sent it again. */
    round: integer("round").notNull().default(0),
    createdAt: createdAt(),
    /** When the attempt's outcome was known (a late answer after the timeout lands here too). */
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("notification_delivery_event").on(t.eventId, t.channelId),
    index("notification_delivery_channel").on(t.channelId, t.createdAt),
  ],
);

export type EscalationStep = { afterMinutes: number; channelIds: number[] };

/** Who hears when an alert stays unacknowledged: ordered steps, the last one optionally repeated. */
export const escalationPolicy = sqliteTable(
  "escalation_policy",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    steps: json<EscalationStep[]>("steps").notNull(),
    /** Minutes between repeats of the last step; null: it is sent once. */
    repeatLastEveryMinutes: real("repeat_last_every_minutes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("escalation_policy_name").on(t.workspaceId, t.name)],
);

/** A monitor's alerts wait on its parents: while one is down they are held, not sent. */
export const monitorDependency = sqliteTable(
  "monitor_dependency",
  {
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    parentId: integer("parent_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.parentId] }), index("monitor_dependency_parent").on(t.parentId)],
);

export const ALERT_TIMER_KINDS = ["remind", "step", "hold"] as const;

/**
 * A stored deadline of an alert: a reminder to one channel, an escalation step, or a child's alert held
 * while a parent is down. Unique per (event, kind, key, round): firing inserts the next one, so a replay adds nothing.
 */
export const alertTimer = sqliteTable(
  "alert_timer",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => statusEvent.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ALERT_TIMER_KINDS }).notNull(),
    /** remind: the channel id; step: the step's index; hold: the parent's monitor id. */
    key: integer("key").notNull(),
    round: integer("round").notNull().default(0),
    channelIds: json<number[]>("channel_ids").notNull(),
    dueAt: integer("due_at").notNull(),
    firedAt: integer("fired_at"),
    /** Why it stopped without firing: acknowledged, recovered, superseded; for hold: released or dropped. */
    outcome: text("outcome"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alert_timer_round").on(t.eventId, t.kind, t.key, t.round),
    index("alert_timer_due").on(t.firedAt, t.dueAt),
    index("alert_timer_monitor").on(t.monitorId, t.firedAt),
  ],
);

/** An acknowledged alert: reminders and escalation stop; who and how is kept for the incident and the audit log. */
export const alertAck = sqliteTable(
  "alert_ack",
  {
    eventId: integer("event_id")
      .primaryKey()
      .references(() => statusEvent.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    incidentId: integer("incident_id").references(() => incident.id, { onDelete: "set null" }),
    actor: text("actor").notNull(),
    /** dashboard, api, cli, link */
    via: text("via").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("alert_ack_monitor").on(t.monitorId)],
);

export const FRESH_CHECK_STATUSES = ["success", "degraded", "error"] as const;

/**
 * The latest check asked of a monitor out of its schedule, for a held alert: a parent's state as of its child's
 * failure, or a held child's own state once its parent is back. One row per monitor; a newer ask replaces it.
 */
export const freshCheck = sqliteTable("fresh_check", {
  monitorId: integer("monitor_id")
    .primaryKey()
    .references(() => monitor.id, { onDelete: "cascade" }),
  askedAt: integer("asked_at").notNull(),
  /** Null until a probe answers (or if none does). */
  status: text("status", { enum: FRESH_CHECK_STATUSES }),
  answeredAt: integer("answered_at"),
});
