import { API_KEY_SCOPES, type ApiKeyScope, apiKey, type Db, workspace, workspaceMember } from "@vigil/db-schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditInsert } from "../audit";
import { parseInput, ValidationError } from "../errors";
import { newSecret, sha256 } from "../secrets";
import type { MemberRole } from "./members";
import { getWorkspace, type Workspace } from "./workspace";

export { API_KEY_SCOPES, type ApiKeyScope };

/** What each scope allows, for the key form and the docs. */
export const SCOPE_MEANING: Record<ApiKeyScope, string> = {
  read: "list and read monitors, channels, status pages, results and the audit log",
  write: "create, change, delete, test and trigger monitors, channels, status pages and reports",
  "probe-admin": "create and delete private locations (their probe keys)",
};

const ApiKeyInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `must each be one of ${API_KEY_SCOPES.join(", ")}` }))
    .min(1, "must name at least one scope")
    .transform((list) => API_KEY_SCOPES.filter((s) => list.includes(s)))
    .default([...API_KEY_SCOPES]),
});

/** The scopes a key of someone with `role` may hold: a viewer's keys only read. */
export const scopesForRole = (role: MemberRole | null): readonly ApiKeyScope[] => (role === "viewer" ? ["read"] : API_KEY_SCOPES);

/** Returns the key once; only its hash is stored. `creatorRole`: the creator's role, which bounds the scopes. */
export async function createApiKey(
  db: Db,
  workspaceId: number,
  input: z.input<typeof ApiKeyInput>,
  actor: Actor,
  creatorRole: MemberRole | null = null,
) {
  const data = parseInput(ApiKeyInput, input, "api key");
  const allowed = scopesForRole(creatorRole);
  const beyond = data.scopes.filter((s) => !allowed.includes(s));
  if (beyond.length > 0)
    throw new ValidationError(`api key: a ${creatorRole}'s key can only have the read scope`, [
      { path: "scopes", message: `${beyond.join(", ")} is not allowed for a ${creatorRole}: only read` },
    ]);
  await getWorkspace(db, workspaceId);
  const { secret, hash, prefix } = newSecret("key");
  const [row] = await db
    .insert(apiKey)
    .values({ workspaceId, name: data.name, prefix, hash, createdBy: actor, scopes: data.scopes })
    .returning({ id: apiKey.id });
  await auditInsert(db, {
    workspaceId,
    actor,
    action: "api-key.create",
    targetType: "api-key",
    targetId: row!.id,
    metadata: { name: data.name, prefix, scopes: data.scopes },
  });
  return { id: row!.id, name: data.name, prefix, scopes: data.scopes, key: secret };
}

const LAST_USED_PRECISION_MS = 60_000;

/** The workspace a bearer key belongs to, or null when unknown, revoked or expired. */
export async function verifyApiKey(
  db: Db,
  key: string,
  nowMs = Date.now(),
): Promise<{ keyId: number; keyName: string; scopes: ApiKeyScope[]; workspace: Workspace } | null> {
  if (!key.startsWith("vgl_key_")) return null;
  const [row] = await db
    .select({ key: apiKey, workspace, creatorRole: workspaceMember.role })
    .from(apiKey)
    .innerJoin(workspace, eq(workspace.id, apiKey.workspaceId))
    .leftJoin(
      workspaceMember,
      and(eq(workspaceMember.workspaceId, apiKey.workspaceId), sql`${apiKey.createdBy} = 'user:' || ${workspaceMember.userId}`),
    )
    .where(and(eq(apiKey.hash, sha256(key)), isNull(apiKey.revokedAt)));
  if (!row) return null;
  if (row.key.expiresAt !== null && row.key.expiresAt <= nowMs) return null;
  // "Last used" is for people (is this key still in use?): a minute's precision saves a write per request.
  if (row.key.lastUsedAt === null || nowMs - row.key.lastUsedAt > LAST_USED_PRECISION_MS) {
    await db.update(apiKey).set({ lastUsedAt: nowMs }).where(eq(apiKey.id, row.key.id));
  }
  // A key never does more than its creator may now: one made by someone since made a viewer only reads.
  const allowed = scopesForRole(row.creatorRole ?? null);
  const scopes = row.key.scopes.filter((s) => allowed.includes(s));
  return { keyId: row.key.id, keyName: row.key.name, scopes, workspace: row.workspace };
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
      scopes: apiKey.scopes,
      createdAt: apiKey.createdAt,
      lastUsedAt: apiKey.lastUsedAt,
      revokedAt: apiKey.revokedAt,
    })
    .from(apiKey)
    .where(eq(apiKey.workspaceId, workspaceId));
}
