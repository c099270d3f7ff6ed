import { CHANNEL_KINDS, CHECK_KINDS, CHECK_STATUSES, MONITOR_STATUSES } from "@vigil/api-contract";
import { sql } from "drizzle-orm";
import { customType, index, integer, primaryKey, real, sqliteTable, sqliteView, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { encryptSecret, readSecretJson } from "./secrets";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);
const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
/** JSON stored encrypted under VIGIL_SECRET_KEY (secrets.ts); reads accept legacy plaintext. Nothing queries inside it. */
const encryptedJson = <T>(table: string, name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => encryptSecret(JSON.stringify(value), `${table}.${name}`),
    fromDriver: (stored) => readSecretJson(stored, `${table}.${name}`) as T,
  })(name);

/** One row: this install's identity (random, made by the migration); names its queues in a shared Redis. */
export const instance = sqliteTable("instance", {
  id: text("id").primaryKey(),
  /** Sign-up when VIGIL_SIGNUP is unset: installs that had users before sign-up rules existed keep "open". */
  signupDefault: text("signup_default", { enum: ["closed", "invite", "open"] }),
  createdAt: createdAt(),
});

/** Instance-admin tokens for `/v1/admin` (not tied to a workspace); shown once, stored as SHA-256. */
export const adminToken = sqliteTable("admin_token", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  hash: text("hash").notNull().unique(),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  lastUsedAt: integer("last_used_at"),
  revokedAt: integer("revoked_at"),
});

/** An instance admin's invitation to the instance (VIGIL_SIGNUP=invite): the first sign-in makes a workspace. */
export const signupInvitation = sqliteTable("signup_invitation", {
  email: text("email").primaryKey(),
  preset: text("preset").notNull(),
  invitedBy: text("invited_by").notNull(),
  createdAt: createdAt(),
  usedAt: integer("used_at"),
});

/** What instance admins did (limits, plans, users, tokens): the workspace's own log gets its part too. */
export const instanceAudit = sqliteTable("instance_audit", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  targetType: text("target_type").notNull(),
  targetId: text("target_id"),
  metadata: json<Record<string, unknown>>("metadata"),
  createdAt: createdAt(),
});

// ── Workspaces and people ────────────────────────────────────────────────────

/** The spec fixes id, name, limits, plan, paid_until (unix s) and ends_at (unix s or null). */
export const workspace = sqliteTable("workspace", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name"),
  slug: text("slug").unique(),
  limits: text("limits"),
  plan: text("plan"),
  paidUntil: integer("paid_until"),
  endsAt: integer("ends_at"),
  /** Its owner asks every member to sign in with a second factor (TOTP) before using it. */
  requireSecondFactor: integer("require_second_factor", { mode: "boolean" }).notNull().default(false),
  /** Heartbeats pinged by name (`/ping/<ping key>/<entry key>`): the key, made on first need, and its hash. */
  pingKey: encryptedJson<string>("workspace", "ping_key"),
  pingKeyHash: text("ping_key_hash").unique(),
  /** A ping by name for an unknown entry key with `?create=1` makes that heartbeat (off unless an admin turns it on). */
  pingAutoCreate: integer("ping_auto_create", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const user = sqliteTable("user", {
  id: text("id").primaryKey(),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: integer("emailVerified", { mode: "timestamp_ms" }),
  image: text("image"),
  /** Set by an instance admin: no sign-in, no session. */
  disabledAt: integer("disabled_at"),
  createdAt: createdAt(),
});

export const account = sqliteTable(
  "account",
  {
    userId: text("userId")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const session = sqliteTable("session", {
  sessionToken: text("sessionToken").primaryKey(),
  userId: text("userId")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" }),
  expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  /** When this session passed its user's second factor (TOTP code or recovery code); null: not yet. */
  secondFactorAt: integer("second_factor_at"),
});

export const verificationToken = sqliteTable(
  "verification_token",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** Highest first; a viewer reads everything of its workspace and changes nothing. */
export const MEMBER_ROLES = ["owner", "admin", "member", "viewer"] as const;
export const workspaceMember = sqliteTable(
  "workspace_member",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBER_ROLES }).notNull().default("member"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

export const invitation = sqliteTable("invitation", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id")
    .notNull()
    .references(() => workspace.id, { onDelete: "cascade" }),
  email: text("email").notNull(),
  role: text("role", { enum: MEMBER_ROLES }).notNull().default("member"),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: integer("expires_at").notNull(),
  acceptedAt: integer("accepted_at"),
  /** Who sent it (`user:<id>`): removing that member withdraws their pending invitations. */
  invitedBy: text("invited_by"),
  createdAt: createdAt(),
});

export const API_KEY_SCOPES = ["read", "write", "probe-admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Keys are shown once; only the SHA-256 hash is kept. */
export const apiKey = sqliteTable("api_key", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id")
    .notNull()
    .references(() => workspace.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  hash: text("hash").notNull().unique(),
  createdBy: text("created_by"),
  /** What it may do (`read`, `write`, `probe-admin`); keys made before scopes existed keep all three. */
  scopes: json<ApiKeyScope[]>("scopes").notNull().default(["read", "write", "probe-admin"]),
  createdAt: createdAt(),
  lastUsedAt: integer("last_used_at"),
  expiresAt: integer("expires_at"),
  revokedAt: integer("revoked_at"),
});

/** A user's authenticator app (TOTP): the secret rests encrypted; recovery codes as SHA-256 hashes, each used once. */
export const userTotp = sqliteTable("user_totp", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  secret: encryptedJson<{ base32: string }>("user_totp", "secret").notNull(),
  /** Null while enrolling: the secret is shown, and only a correct code confirms it. */
  confirmedAt: integer("confirmed_at"),
  recoveryCodes: json<string[]>("recovery_codes").notNull().default([]),
  /** The last accepted 30-second step: a code works once. */
  lastStep: integer("last_step"),
  createdAt: createdAt(),
});

// ── Monitors and probes ──────────────────────────────────────────────────────

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

// ── Alerts ───────────────────────────────────────────────────────────────────

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

// ── Status pages ─────────────────────────────────────────────────────────────

export const PAGE_THEMES = ["system", "light", "dark"] as const;
/** The languages a status page is shown in (BCP 47 tags, as `<html lang>` and `?lang=` take them). */
export const PAGE_LANGUAGES = ["en", "de", "fr", "es", "pt-BR", "ja", "zh-CN"] as const;
/** Ways a status page's visitors can follow it. */
export const SUBSCRIBER_CHANNELS = ["email", "webhook", "slack"] as const;
export type PageLink = { label: string; url: string };

export const statusPage = sqliteTable(
  "status_page",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Claimed by the page; served only once verified (several pages may claim one domain, one holds it). */
    customDomain: text("custom_domain"),
    /** What the claimant publishes to prove the domain (HTTP file or TXT record); new with every claim. */
    customDomainToken: text("custom_domain_token"),
    customDomainVerifiedAt: integer("custom_domain_verified_at"),
    /** The last verification attempt and, when it failed, why. */
    customDomainCheckedAt: integer("custom_domain_checked_at"),
    customDomainError: text("custom_domain_error"),
    /** scrypt: `scrypt$<salt hex>$<key hex>`. */
    passwordHash: text("password_hash"),
    published: integer("published", { mode: "boolean" }).notNull().default(true),
    whiteLabel: integer("white_label", { mode: "boolean" }).notNull().default(false),
    logoUrl: text("logo_url"),
    links: json<PageLink[]>("links").notNull().default([]),
    theme: text("theme", { enum: PAGE_THEMES }).notNull().default("system"),
    /** Shown to visitors whose browser asks for none of PAGE_LANGUAGES. */
    language: text("language", { enum: PAGE_LANGUAGES }).notNull().default("en"),
    allowIndex: integer("allow_index", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("status_page_custom_domain").on(t.customDomain),
    // A domain is served by at most one page: the one whose claim is verified.
    uniqueIndex("status_page_verified_domain").on(t.customDomain).where(sql`${t.customDomainVerifiedAt} is not null`),
  ],
);

export const statusPageGroup = sqliteTable("status_page_group", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  pageId: integer("page_id")
    .notNull()
    .references(() => statusPage.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  order: integer("order").notNull().default(0),
});

/** What a static component says; a monitor-linked one takes its status from the monitor. */
export const COMPONENT_STATUSES = ["operational", "degraded", "partial_outage", "major_outage"] as const;
/** How hard a status report hits one component. */
export const REPORT_IMPACTS = ["degraded", "partial_outage", "major_outage"] as const;

export const statusPageComponent = sqliteTable("status_page_component", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  pageId: integer("page_id")
    .notNull()
    .references(() => statusPage.id, { onDelete: "cascade" }),
  groupId: integer("group_id").references(() => statusPageGroup.id, { onDelete: "set null" }),
  monitorId: integer("monitor_id").references(() => monitor.id, { onDelete: "set null" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  order: integer("order").notNull().default(0),
  staticStatus: text("static_status", { enum: COMPONENT_STATUSES }).notNull().default("operational"),
});

export const REPORT_STATUSES = ["investigating", "identified", "monitoring", "resolved"] as const;

export const statusReport = sqliteTable("status_report", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id")
    .notNull()
    .references(() => workspace.id, { onDelete: "cascade" }),
  pageId: integer("page_id").references(() => statusPage.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  status: text("status", { enum: REPORT_STATUSES }).notNull(),
  /** The monitor incident this report was promoted from. */
  incidentId: integer("incident_id").references(() => incident.id, { onDelete: "set null" }),
  resolvedAt: integer("resolved_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const statusReportUpdate = sqliteTable("status_report_update", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  reportId: integer("report_id")
    .notNull()
    .references(() => statusReport.id, { onDelete: "cascade" }),
  status: text("status", { enum: REPORT_STATUSES }).notNull(),
  message: text("message").notNull(),
  date: integer("date").notNull(),
  createdAt: createdAt(),
});

export const statusReportComponent = sqliteTable(
  "status_report_component",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => statusReport.id, { onDelete: "cascade" }),
    componentId: integer("component_id")
      .notNull()
      .references(() => statusPageComponent.id, { onDelete: "cascade" }),
    impact: text("impact", { enum: REPORT_IMPACTS }).notNull().default("major_outage"),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.componentId] })],
);

export const maintenance = sqliteTable(
  "maintenance",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    pageId: integer("page_id").references(() => statusPage.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("maintenance_window").on(t.workspaceId, t.startsAt, t.endsAt)],
);

export const maintenanceMonitor = sqliteTable(
  "maintenance_monitor",
  {
    maintenanceId: integer("maintenance_id")
      .notNull()
      .references(() => maintenance.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.maintenanceId, t.monitorId] })],
);

/** Components (static ones too) a maintenance window covers on its page. */
export const maintenanceComponent = sqliteTable(
  "maintenance_component",
  {
    maintenanceId: integer("maintenance_id")
      .notNull()
      .references(() => maintenance.id, { onDelete: "cascade" }),
    componentId: integer("component_id")
      .notNull()
      .references(() => statusPageComponent.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.maintenanceId, t.componentId] })],
);

export const pageSubscriber = sqliteTable(
  "page_subscriber",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pageId: integer("page_id")
      .notNull()
      .references(() => statusPage.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** SHA-256 of the confirmation token (double opt-in). */
    tokenHash: text("token_hash").notNull().unique(),
    tokenExpiresAt: integer("token_expires_at"),
    /** Put in every mail's unsubscribe link; it can only unsubscribe, so it is kept as is. */
    unsubscribeToken: text("unsubscribe_token").unique(),
    confirmedAt: integer("confirmed_at"),
    unsubscribedAt: integer("unsubscribed_at"),
    /**
     * The page's password hash when this subscriber proved the password (null: never). Mail of a protected
     * page goes only to subscribers whose value is the page's current hash: a new password stops mail to
     * those who knew the old one until they subscribe again with the new one.
     */
    accessPasswordHash: text("access_password_hash"),
    /** The language the visitor saw when subscribing: their mail is written in it (null: the page's). */
    language: text("language", { enum: PAGE_LANGUAGES }),
    /** How updates reach this subscriber: mail to `email`, or a POST to `url` (signed JSON, or a Slack message). */
    channel: text("channel", { enum: SUBSCRIBER_CHANNELS }).notNull().default("email"),
    /** Webhook and Slack subscribers: where updates are posted (their `email` is ""); a Slack URL is its credential. */
    url: encryptedJson<string>("page_subscriber", "url"),
    /** SHA-256 of `url`: one subscription per endpoint and page. */
    urlHash: text("url_hash"),
    /** Webhook subscribers: the HMAC-SHA256 signing key, shown once. */
    secret: encryptedJson<string>("page_subscriber", "secret"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("page_subscriber_email").on(t.pageId, t.email).where(sql`${t.channel} = 'email'`),
    uniqueIndex("page_subscriber_url").on(t.pageId, t.urlHash),
  ],
);

export const SUBSCRIBER_MAIL_KINDS = ["report_update", "maintenance"] as const;
export const SUBSCRIBER_MAIL_OUTCOMES = ["pending", "sent", "failed"] as const;

/** One row per (subscriber, report update or maintenance): a mail is never sent twice. */
export const subscriberDelivery = sqliteTable(
  "subscriber_delivery",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => pageSubscriber.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SUBSCRIBER_MAIL_KINDS }).notNull(),
    refId: integer("ref_id").notNull(),
    outcome: text("outcome", { enum: SUBSCRIBER_MAIL_OUTCOMES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    sentAt: integer("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("subscriber_delivery_once").on(t.subscriberId, t.kind, t.refId), index("subscriber_delivery_outcome").on(t.outcome)],
);

// ── Audit ────────────────────────────────────────────────────────────────────

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspace.id, { onDelete: "cascade" }),
    /** Who did it: `user:<id>`, `api-key:<id>`, `operator`, `system`. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    metadata: json<Record<string, unknown>>("metadata"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_workspace_time").on(t.workspaceId, t.createdAt)],
);

// ── Analytics export ─────────────────────────────────────────────────────────

/**
 * How far `check_result` has been copied to an external analytics store, by SQLite rowid (rowids grow in
 * commit order; ULIDs do not, since probes send late results). `pendingThrough` is the batch in flight:
 * it is re-sent as exactly the same rows until the store has accepted it.
 */
export const analyticsExport = sqliteTable("analytics_export", {
  store: text("store").primaryKey(),
  exportedThrough: integer("exported_through").notNull().default(0),
  pendingThrough: integer("pending_through"),
  updatedAt: updatedAt(),
});

// ── Heartbeats ───────────────────────────────────────────────────────────────

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

// ── Prometheus scrape ────────────────────────────────────────────────────────

/**
 * Per monitor and location, every stored result folded once into Prometheus counters and a latency histogram
 * (cumulative `le_*` columns, ms), so a scrape adds only the results stored since the last one and the counters
 * never go back when retention deletes old results.
 */
export const metricCounter = sqliteTable(
  "metric_counter",
  {
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitor.id, { onDelete: "cascade" }),
    locationId: integer("location_id").notNull(),
    workspaceId: integer("workspace_id").notNull(),
    total: integer("total").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    latencySumMs: integer("latency_sum_ms").notNull().default(0),
    le50: integer("le_50").notNull().default(0),
    le100: integer("le_100").notNull().default(0),
    le250: integer("le_250").notNull().default(0),
    le500: integer("le_500").notNull().default(0),
    le1000: integer("le_1000").notNull().default(0),
    le2500: integer("le_2500").notNull().default(0),
    le5000: integer("le_5000").notNull().default(0),
    le10000: integer("le_10000").notNull().default(0),
    le30000: integer("le_30000").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.locationId] }), index("metric_counter_workspace").on(t.workspaceId)],
);

/** Per workspace: the check_result_row id through which its results are folded into metric_counter. */
export const metricWatermark = sqliteTable("metric_watermark", {
  workspaceId: integer("workspace_id")
    .primaryKey()
    .references(() => workspace.id, { onDelete: "cascade" }),
  through: integer("through").notNull(),
});
