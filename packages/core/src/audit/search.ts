import { auditLog, type Db } from "@vigil/db-schema";
import { and, desc, eq, lt, type SQL } from "drizzle-orm";

export interface AuditQuery {
  actor?: string;
  action?: string;
  /** Entries older than this id (the next page). */
  before?: number;
  limit?: number;
}

/** One page of a workspace's audit log, newest first, filtered by exact actor and action. */
export async function searchAuditLog(db: Db, workspaceId: number, q: AuditQuery = {}) {
  const limit = Math.min(Math.max(q.limit ?? 25, 1), 200);
  const where: SQL[] = [eq(auditLog.workspaceId, workspaceId)];
  if (q.actor) where.push(eq(auditLog.actor, q.actor));
  if (q.action) where.push(eq(auditLog.action, q.action));
  if (q.before) where.push(lt(auditLog.id, q.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  return { entries: rows.slice(0, limit), nextBefore: rows.length > limit ? rows[limit - 1]!.id : null };
}

/** The distinct actors and actions of a workspace's log, for the filter menus. */
export async function auditFacets(db: Db, workspaceId: number) {
  const actors = await db
    .selectDistinct({ v: auditLog.actor })
    .from(auditLog)
    .where(eq(auditLog.workspaceId, workspaceId))
    .orderBy(auditLog.actor);
  const actions = await db
    .selectDistinct({ v: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.workspaceId, workspaceId))
    .orderBy(auditLog.action);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v) };
}
