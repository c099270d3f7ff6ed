// Monitors and probes: monitors, private locations, check results and their rollups.
import { CHECK_KINDS, CHECK_STATUSES, MONITOR_STATUSES } from "@vigil/api-contract";
import { sql } from "drizzle-orm";
import { customType, index, integer, primaryKey, sqliteTable, sqliteView, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, encryptedJson, json, updatedAt } from "./columns";
import { workspace } from "./workspace";

export type Assertion = Record<string, unknown> & { kind: string };
export type HeaderMap = Record<string, string>;

export const monitor = sqliteTable(
  "monitor",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    /** The YAML entry key; `apply` matches on it. */
    key: text("key"),
    name: text("name").notNull().default(""),
    description: text("description").notNull().default(""),
    tags: json<string[]>("tags").notNull().default([]),
    kind: text("kind", { enum: CHECK_KINDS }).notNull(),
    frequency: text("frequency").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    public: integer("public", { mode: "boolean" }).notNull().default(false),
    regions: json<string[]>("regions").notNull(),
    retry: integer("retry").notNull().default(3),
    timeoutMs: integer("timeout_ms").notNull().default(45_000),
    degradedAfterMs: integer("degraded_after_ms"),
    /** Consecutive failed checks (after retries) of a location before it votes error; 1 = the first one. */
    failureThreshold: integer("failure_threshold").notNull().default(1),
    /** Consecutive good checks of a location before it stops voting error. */
    successThreshold: integer("success_threshold").notNull().default(1),
    // HTTP
    url: text("url"),
    method: text("method"),
    headers: encryptedJson<HeaderMap>("monitor", "headers"),
    /** Header names the user marked secret, beyond those secret by name (authorization, cookie, …). */
    secretHeaders: json<string[]>("secret_headers"),
    body: text("body"),
    followRedirects: integer("follow_redirects", { mode: "boolean" }),
    assertions: json<Assertion[]>("assertions"),
    // TCP (and TLS)
    host: text("host"),
    port: integer("port"),
    // Heartbeat: a period or a cron expression (in its zone), and the grace after which silence is down
    hbPeriodMs: integer("hb_period_ms"),
    hbGraceMs: integer("hb_grace_ms"),
    hbCron: text("hb_cron"),
    hbTimezone: text("hb_timezone"),
    /** Each kind's own request fields beyond the columns above (DNS name, TLS SNI, ping packets, gRPC service, a query…). */
    options: json<Record<string, unknown>>("options"),
    /** A database check's connection string: a secret. */
    connection: encryptedJson<string>("monitor", "connection"),
    // OTLP metric export
    otelEndpoint: text("otel_endpoint"),
    otelHeaders: encryptedJson<HeaderMap>("monitor", "otel_headers"),
    /** While down and not acknowledged, every linked channel without its own interval hears again after this long. */
    remindEveryMs: integer("remind_every_ms"),
    /** Who else hears when nobody acknowledges (escalation_policy.id). */
    escalationPolicyId: integer("escalation_policy_id"),
    /** Current status, moved only by evaluation. */
    status: text("status", { enum: MONITOR_STATUSES }).notNull().default("active"),
    statusCronTimestamp: integer("status_cron_timestamp"),
    /** Bumped on every change so probes can tell what to reload. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [
    uniqueIndex("monitor_workspace_key").on(t.workspaceId, t.key).where(sql`${t.deletedAt} is null and ${t.key} is not null`),
    index("monitor_workspace").on(t.workspaceId),
  ],
);

export const privateLocation = sqliteTable(
  "private_location",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    region: text("region").notNull().default("private"),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    lastSeenAt: integer("last_seen_at"),
    online: integer("online", { mode: "boolean" }).notNull().default(false),
    /** Checks the probe could not run in time because of its own load (reported by the probe, counted). */
    skippedChecks: integer("skipped_checks").notNull().default(0),
    /** Set while the probe keeps missing its deadlines (it says so at every poll); null when it keeps up. */
    overloadedSince: integer("overloaded_since"),
    /** Slots of its monitors no probe of the location ran (a gap between results, or all its probes silent), counted. */
    slotsMissed: integer("slots_missed").notNull().default(0),
    /** Set when the workspace was told the location went silent; cleared when it was told it is back. */
    silenceNoticedAt: integer("silence_noticed_at"),
    createdAt: createdAt(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("private_location_workspace").on(t.workspaceId)],
);

/** The latest result of each location serving a monitor. */
export const monitorLocationStatus = sqliteTable(
  "monitor_location_status",
  {
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    locationId: integer("location_id")
      .notNull()
      .references(() => privateLocation.id, { onDelete: "cascade" }),
    status: text("status", { enum: CHECK_STATUSES }).notNull(),
    cronTimestamp: integer("cron_timestamp").notNull(),
    resultId: text("result_id").notNull(),
    /** The stored result's id: evaluation has read it once its watermark (`monitor_evaluation.through`) reaches it. */
    resultRowid: integer("result_rowid"),
    latencyMs: integer("latency_ms"),
    statusCode: integer("status_code"),
    errorMessage: text("error_message"),
    /** When the peer certificate this location last saw ends (HTTPS and TLS checks), epoch ms. */
    certNotAfter: integer("cert_not_after"),
    /** Consecutive results of this location on the same side (error / not error) as `status`, this one included. */
    streak: integer("streak").notNull().default(1),
    /** Slots up to this one were counted missed while the location was silent (so a later gap counts only the rest). */
    missedThrough: integer("missed_through"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.locationId] })],
);

/** A result's status as stored: success, degraded and error are 0, 1 and 2 (0 and 1 take no bytes in a row). */
const checkStatus = customType<{ data: (typeof CHECK_STATUSES)[number]; driverData: number }>({
  dataType: () => "integer",
  toDriver: (v) => CHECK_STATUSES.indexOf(v),
  fromDriver: (v) => CHECK_STATUSES[Number(v)]!,
});

/**
 * Check results as stored (the libSQL analytics backend): about 50 bytes a row. Keyed by an integer id, the
 * rowid (grows in commit order, what the analytics export follows); a result is stored once per (monitor, slot, location),
 * which is also the only index. The region comes from the location, the start time is kept as its offset
 * from the slot, timings and assertions only for results that were not ok.
 * Read it through the `check_result` view.
 */
export const checkResultRow = sqliteTable(
  "check_result_row",
  {
    /** The rowid, named so that it never changes (VACUUM keeps it). */
    id: integer("id").primaryKey(),
    workspaceId: integer("workspace_id").notNull(),
    monitorId: integer("monitor_id").notNull(),
    cronTimestamp: integer("cron_timestamp").notNull(),
    locationId: integer("location_id").notNull(),
    status: checkStatus("status").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    /** started_at − cron_timestamp: a byte or two instead of six. */
    startOffsetMs: integer("start_offset_ms").notNull().default(0),
    statusCode: integer("status_code"),
    errorMessage: text("error_message"),
    attempts: integer("attempts").notNull().default(1),
    timings: json<Record<string, number>>("timings"),
    assertions: json<unknown[]>("assertions"),
  },
  (t) => [uniqueIndex("check_result_slot").on(t.monitorId, t.cronTimestamp, t.locationId)],
);

/**
 * How far evaluation has read each monitor's results: every result row up to `through` (an id) was
 * stored before the evaluation at `evaluatedAt` read the latest statuses. `cron` is the newest slot an
 * evaluation decided on: a result older than it never moves the status back. One narrow row per monitor,
 * rewritten per evaluation batch, instead of an update of every result.
 */
export const monitorEvaluation = sqliteTable("monitor_evaluation", {
  monitorId: integer("monitor_id").primaryKey(),
  through: integer("through").notNull(),
  cron: integer("cron"),
  evaluatedAt: integer("evaluated_at").notNull(),
});

/** Check results as read: the stored row with its region, start time, status name and evaluation time. */
export const checkResult = sqliteView("check_result", {
  id: integer("id").notNull(),
  workspaceId: integer("workspace_id").notNull(),
  monitorId: integer("monitor_id").notNull(),
  locationId: integer("location_id").notNull(),
  region: text("region").notNull(),
  cronTimestamp: integer("cron_timestamp").notNull(),
  startedAt: integer("started_at").notNull(),
  status: text("status", { enum: CHECK_STATUSES }).notNull(),
  latencyMs: integer("latency_ms").notNull(),
  statusCode: integer("status_code"),
  errorMessage: text("error_message"),
  attempts: integer("attempts").notNull(),
  timings: json<Record<string, number>>("timings"),
  assertions: json<unknown[]>("assertions"),
  /** When an evaluation had taken the result into account; null while it is pending. */
  evaluatedAt: integer("evaluated_at"),
}).as(
  sql`select r.id, r.workspace_id, r.monitor_id, r.location_id, l.region, r.cron_timestamp, r.cron_timestamp + r.start_offset_ms as started_at, case r.status when 0 then 'success' when 1 then 'degraded' else 'error' end as status, r.latency_ms, r.status_code, r.error_message, r.attempts, r.timings, r.assertions, case when r.id <= e.through then e.evaluated_at end as evaluated_at from check_result_row r left join private_location l on l.id = r.location_id left join monitor_evaluation e on e.monitor_id = r.monitor_id`,
);

/**
 * Check results summed per monitor, location and completed hour (the libSQL analytics backend), so charts and
 * uptime over days read a few hundred rows instead of every result. Hours before the monitor's
 * `check_result_rollup.through` are summed, from the results up to the `analytics_export` watermark of store
 * `check_result_hour` (a check_result rowid); readers add the results past it and those of later hours.
 * `latencies` is an exact histogram: a JSON array of latency, count, latency, count…
 */
export const checkResultHour = sqliteTable(
  "check_result_hour",
  {
    monitorId: integer("monitor_id").notNull(),
    hour: integer("hour").notNull(),
    locationId: integer("location_id").notNull(),
    workspaceId: integer("workspace_id").notNull(),
    total: integer("total").notNull(),
    success: integer("success").notNull(),
    degraded: integer("degraded").notNull(),
    error: integer("error").notNull(),
    latencies: text("latencies").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.monitorId, t.hour, t.locationId] }),
    index("check_result_hour_workspace_time").on(t.workspaceId, t.hour),
  ],
);

/** Per monitor: the hour (ms) before which its results are summed in check_result_hour. */
export const checkResultRollup = sqliteTable("check_result_rollup", {
  monitorId: integer("monitor_id").primaryKey(),
  through: integer("through").notNull(),
});
