import { type Db, session, user, writeBatch } from "@vigil/db-schema";
import { asc, eq, sql } from "drizzle-orm";
import { NotFoundError, ValidationError } from "../errors";
import { instanceAuditInsert } from "./audit";

export async function listUsers(db: Db) {
  return db
    .select({ id: user.id, email: user.email, name: user.name, disabledAt: user.disabledAt, createdAt: user.createdAt })
    .from(user)
    .orderBy(asc(sql`rowid`));
}

/**
 * Disables (or enables) a user. Disabling ends every session in the same write, so the next request of an
 * open dashboard is signed out, and sign-in is refused from then on.
 */
export async function setUserDisabled(db: Db, userId: string, disabled: boolean, actor: string, nowMs = Date.now()) {
  if (disabled && actor === `instance-admin:${userId}`)
    throw new ValidationError("user: you cannot disable yourself", [{ path: "userId", message: "is you: ask another instance admin" }]);
  const [target] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.id, userId));
  if (!target) throw new NotFoundError("user", userId);
  await writeBatch(db, [
    db
      .update(user)
      .set({ disabledAt: disabled ? nowMs : null })
      .where(eq(user.id, userId)),
    ...(disabled ? [db.delete(session).where(eq(session.userId, userId))] : []),
    instanceAuditInsert(db, {
      actor,
      action: disabled ? "user.disable" : "user.enable",
      targetType: "user",
      targetId: userId,
      metadata: { email: target.email },
    }),
  ]);
  return { id: target.id, email: target.email, disabled };
}
