import { auditLog, type Conn, type Db, type Tx } from "@vigil/db-schema";
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";

/** Who made a change: `user:<id>`, `api-key:<id>`, `location:<id>`, `operator`, `system`. */
export type Actor = string;

export interface AuditEntry {
  workspaceId: number;
  actor: Actor;
  action: string;
  targetType: string;
  targetId?: string | number | null;
  metadata?: Record<string, unknown>;
}

/** The insert, for use inside a batch with the change it records. */
export function auditInsert(db: Conn, e: AuditEntry) {
  return db.insert(auditLog).values({
    workspaceId: e.workspaceId,
    actor: e.actor,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId === undefined || e.targetId === null ? null : String(e.targetId),
    metadata: e.metadata ?? null,
  });
}

/** What a change records; `audited` adds the workspace and the actor. */
export type AuditRecord = Omit<AuditEntry, "workspaceId" | "actor">;

/**
 * Runs `change` in one immediate transaction (SQLite's write lock taken at the start, so what it reads stays
 * true until it writes); what it records with `audit` is written in the same transaction, or not at all.
 */
export function audited<T>(
  db: Db,
  workspaceId: number,
  actor: Actor,
  change: (tx: Tx, audit: (record: AuditRecord) => Promise<void>) => Promise<T>,
): Promise<T> {
  return db.transaction(
    (tx) =>
      change(tx, async (record) => {
        await auditInsert(tx, { workspaceId, actor, ...record });
      }),
    { behavior: "immediate" },
  );
}

/**
 * The insert, written only when `when` holds at its place in a write batch: the record of a
 * conditional write, which must appear exactly when the write itself happened.
 */
export function auditInsertWhen(e: AuditEntry, when: SQL): SQL {
  const targetId = e.targetId === undefined || e.targetId === null ? null : String(e.targetId);
  const metadata = e.metadata === undefined ? null : JSON.stringify(e.metadata);
  return sql`INSERT INTO audit_log (workspace_id, actor, action, target_type, target_id, metadata)
    SELECT ${e.workspaceId}, ${e.actor}, ${e.action}, ${e.targetType}, ${targetId}, ${metadata} WHERE ${when}`;
}

export async function listAuditLog(db: Db, workspaceId: number, opts: { limit?: number; before?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const where = opts.before
    ? and(eq(auditLog.workspaceId, workspaceId), lt(auditLog.id, opts.before))
    : eq(auditLog.workspaceId, workspaceId);
  return db.select().from(auditLog).where(where).orderBy(desc(auditLog.id)).limit(limit);
}
