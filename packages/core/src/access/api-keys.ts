import { apiKey, type Db, workspace } from "@vigil/db-schema";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditInsert } from "../audit";
import { parseInput } from "../errors";
import { newSecret, sha256 } from "../secrets";
import { getWorkspace, type Workspace } from "./workspace";

const ApiKeyInput = z.object({ name: z.string().trim().min(1, "must not be empty").max(100) });

/** Returns the key once; only its hash is stored. */
export async function createApiKey(db: Db, workspaceId: number, input: z.input<typeof ApiKeyInput>, actor: Actor) {
  const data = parseInput(ApiKeyInput, input, "api key");
  await getWorkspace(db, workspaceId);
  const { secret, hash, prefix } = newSecret("key");
  const [row] = await db
    .insert(apiKey)
    .values({ workspaceId, name: data.name, prefix, hash, createdBy: actor })
    .returning({ id: apiKey.id });
  await auditInsert(db, {
    workspaceId,
    actor,
    action: "api-key.create",
    targetType: "api-key",
    targetId: row!.id,
    metadata: { name: data.name, prefix },
  });
  return { id: row!.id, name: data.name, prefix, key: secret };
}

const LAST_USED_PRECISION_MS = 60_000;

/** The workspace a bearer key belongs to, or null when unknown, revoked or expired. */
export async function verifyApiKey(
  db: Db,
  key: string,
  nowMs = Date.now(),
): Promise<{ keyId: number; keyName: string; workspace: Workspace } | null> {
  if (!key.startsWith("vgl_key_")) return null;
  const [row] = await db
    .select({ key: apiKey, workspace })
    .from(apiKey)
    .innerJoin(workspace, eq(workspace.id, apiKey.workspaceId))
    .where(and(eq(apiKey.hash, sha256(key)), isNull(apiKey.revokedAt)));
  if (!row) return null;
  if (row.key.expiresAt !== null && row.key.expiresAt <= nowMs) return null;
  // "Last used" is for people (is this key still in use?): a minute's precision saves a write per request.
  if (row.key.lastUsedAt === null || nowMs - row.key.lastUsedAt > LAST_USED_PRECISION_MS) {
    await db.update(apiKey).set({ lastUsedAt: nowMs }).where(eq(apiKey.id, row.key.id));
  }
  return { keyId: row.key.id, keyName: row.key.name, workspace: row.workspace };
}

export async function revokeApiKey(db: Db, workspaceId: number, id: number, actor: Actor): Promise<boolean> {
  const res = await db
    .update(apiKey)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKey.id, id), eq(apiKey.workspaceId, workspaceId), isNull(apiKey.revokedAt)))
    .returning({ id: apiKey.id });
  if (res.length === 0) return false;
  await auditInsert(db, { workspaceId, actor, action: "api-key.revoke", targetType: "api-key", targetId: id });
  return true;
}

export async function listApiKeys(db: Db, workspaceId: number) {
  return db
    .select({
      id: apiKey.id,
      name: apiKey.name,
      prefix: apiKey.prefix,
      createdAt: apiKey.createdAt,
      lastUsedAt: apiKey.lastUsedAt,
      revokedAt: apiKey.revokedAt,
    })
    .from(apiKey)
    .where(eq(apiKey.workspaceId, workspaceId));
}
