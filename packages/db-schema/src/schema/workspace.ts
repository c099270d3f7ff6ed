// Workspaces and people: users, sign-in, members, invitations, API keys, second factors.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, encryptedJson, json, updatedAt } from "./columns";

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
