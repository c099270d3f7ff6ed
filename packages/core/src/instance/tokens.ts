import { adminToken, type Db } from "@vigil/db-schema";
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { parseInput } from "../errors";
import { newSecret, sha256 } from "../secrets";
import { instanceAuditInsert } from "./audit";

const TokenInput = z.object({ name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters") });

/** An instance-admin token for `/v1/admin` and `vigil admin`; shown once, only its hash is kept. */
export async function createAdminToken(db: Db, input: z.input<typeof TokenInput>, actor: string) {
  const data = parseInput(TokenInput, input, "token");
  const { secret, hash, prefix } = newSecret("adm");
  const [row] = await db.insert(adminToken).values({ name: data.name, prefix, hash, createdBy: actor }).returning({ id: adminToken.id });
  await instanceAuditInsert(db, {
    actor,
    action: "admin-token.create",
    targetType: "admin-token",
    targetId: row!.id,
    metadata: { name: data.name, prefix },
  });
  return { id: row!.id, name: data.name, prefix, token: secret };
}

/** The token's id, or null when unknown or revoked. */
export async function verifyAdminToken(db: Db, token: string, nowMs = Date.now()): Promise<{ id: number; name: string } | null> {
  if (!token.startsWith("vgl_adm_")) return null;
  const [row] = await db
    .select({ id: adminToken.id, name: adminToken.name, lastUsedAt: adminToken.lastUsedAt })
    .from(adminToken)
    .where(and(eq(adminToken.hash, sha256(token)), isNull(adminToken.revokedAt)));
  if (!row) return null;
  if (row.lastUsedAt === null || nowMs - row.lastUsedAt > 60_000)
    await db.update(adminToken).set({ lastUsedAt: nowMs }).where(eq(adminToken.id, row.id));
  return { id: row.id, name: row.name };
}

export async function listAdminTokens(db: Db) {
  return db
    .select({
      id: adminToken.id,
      name: adminToken.name,
      prefix: adminToken.prefix,
      createdBy: adminToken.createdBy,
      createdAt: adminToken.createdAt,
      lastUsedAt: adminToken.lastUsedAt,
    })
    .from(adminToken)
    .where(isNull(adminToken.revokedAt))
    .orderBy(asc(adminToken.id));
}

export async function revokeAdminToken(db: Db, id: number, actor: string): Promise<boolean> {
  const res = await db
    .update(adminToken)
    .set({ revokedAt: Date.now() })
    .where(and(eq(adminToken.id, id), isNull(adminToken.revokedAt)))
    .returning({ id: adminToken.id });
  if (res.length === 0) return false;
  await instanceAuditInsert(db, { actor, action: "admin-token.revoke", targetType: "admin-token", targetId: id });
  return true;
}
