// The workspace's audit log.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";
import { workspace } from "./workspace";

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
