// The install itself: its identity, instance admins' tokens, sign-up invitations and audit.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";

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
