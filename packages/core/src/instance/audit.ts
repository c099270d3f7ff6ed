import { type Conn, type Db, instanceAudit } from "@vigil/db-schema";
import { desc } from "drizzle-orm";

export interface InstanceAuditEntry {
  actor: string;
  action: string;
  targetType: string;
  targetId?: string | number | null;
  metadata?: Record<string, unknown>;
}

/** The insert, for a batch with the change it records. */
export function instanceAuditInsert(db: Conn, e: InstanceAuditEntry) {
  return db.insert(instanceAudit).values({
    actor: e.actor,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId === undefined || e.targetId === null ? null : String(e.targetId),
    metadata: e.metadata ?? null,
  });
}

export async function listInstanceAudit(db: Db, limit = 100) {
  return db
    .select()
    .from(instanceAudit)
    .orderBy(desc(instanceAudit.id))
    .limit(Math.min(Math.max(limit, 1), 500));
}
