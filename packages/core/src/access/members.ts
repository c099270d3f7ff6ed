// Members, invitations and roles of a workspace in one file: every change is checked against the same role ladder and seat count.
import { apiKey, type Db, invitation, MEMBER_ROLES, monitor, user, workspace, workspaceMember, writeBatch } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, asc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditInsert, auditInsertWhen } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";
import { newSecret, sha256 } from "../secrets";
import { getWorkspace, limitsOf, type Workspace } from "./workspace";

export type MemberRole = (typeof MEMBER_ROLES)[number];
export { MEMBER_ROLES };

const RANK: Record<MemberRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The signed-in person is in the workspace but their role does not allow the action. */
export class ForbiddenError extends Error {
  readonly code = "forbidden";
  constructor(readonly needed: MemberRole) {
    super(`this needs the ${needed} role`);
    this.name = "ForbiddenError";
  }
}

export interface Membership {
  workspace: Workspace;
  role: MemberRole;
}

/** Every workspace the user belongs to, oldest first. */
export async function listMemberships(db: Db, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({ workspace, role: workspaceMember.role })
    .from(workspaceMember)
    .innerJoin(workspace, eq(workspace.id, workspaceMember.workspaceId))
    .where(eq(workspaceMember.userId, userId))
    .orderBy(asc(workspace.id));
  return rows;
}

/**
 * The user's membership of `workspaceId`, checked against `atLeast`. Not a member (or no such
 * workspace) → NotFoundError, so another workspace's id answers exactly like one that does not exist.
 */
export async function requireMember(db: Db, workspaceId: number, userId: string, atLeast: MemberRole = "viewer"): Promise<Membership> {
  if (!Number.isSafeInteger(workspaceId) || workspaceId <= 0) throw new NotFoundError("workspace", String(workspaceId));
  const [row] = await db
    .select({ workspace, role: workspaceMember.role })
    .from(workspaceMember)
    .innerJoin(workspace, eq(workspace.id, workspaceMember.workspaceId))
    .where(and(eq(workspaceMember.workspaceId, workspaceId), eq(workspaceMember.userId, userId)));
  if (!row) throw new NotFoundError("workspace", workspaceId);
  if (RANK[row.role] < RANK[atLeast]) throw new ForbiddenError(atLeast);
  return row;
}

/** The workspace of a monitor, when `userId` belongs to it; null for a monitor they cannot see or that does not exist. */
export async function workspaceOfMonitor(db: Db, monitorId: number, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ workspaceId: monitor.workspaceId })
    .from(monitor)
    .innerJoin(workspaceMember, and(eq(workspaceMember.workspaceId, monitor.workspaceId), eq(workspaceMember.userId, userId)))
    .where(eq(monitor.id, monitorId));
  return row?.workspaceId ?? null;
}

export const canManage = (role: MemberRole): boolean => RANK[role] >= RANK.admin;
/** Members and above change things; a viewer only reads. */
export const canChange = (role: MemberRole): boolean => RANK[role] >= RANK.member;
export const roleAtLeast = (role: MemberRole, atLeast: MemberRole): boolean => RANK[role] >= RANK[atLeast];

/**
 * A signed-in user's workspaces, creating one on first sign-in. When `localWorkspace` (id or slug) names a
 * workspace nobody belongs to yet (the one the embedded run bootstrapped), the first user to get
 * here becomes its owner instead (whatever the sign-up rule); the claim is one conditional insert, so two racing sign-ins
 * cannot both win.
 */
export async function bootstrapUser(
  db: Db,
  u: { id: string; email?: string | null; name?: string | null },
  opts: { localWorkspace?: number | string; newWorkspace?: { limits: string | null } | null } = {},
): Promise<Membership[]> {
  const existing = await listMemberships(db, u.id);
  if (existing.length > 0) return existing;
  const local = opts.localWorkspace;
  const [target] =
    local === undefined
      ? []
      : await db
          .select({ id: workspace.id })
          .from(workspace)
          .where(typeof local === "number" ? eq(workspace.id, local) : eq(workspace.slug, local));
  if (target) {
    const wsId = target.id;
    const claimed = await db.run(sql`
      INSERT INTO workspace_member (workspace_id, user_id, role)
      SELECT ${wsId}, ${u.id}, 'owner'
      WHERE NOT EXISTS (SELECT 1 FROM workspace_member WHERE workspace_id = ${wsId})`);
    if (claimed.rowsAffected > 0) {
      await auditInsert(db, {
        workspaceId: wsId,
        actor: `user:${u.id}`,
        action: "member.claim-local",
        targetType: "user",
        targetId: u.id,
        metadata: { email: u.email ?? null },
      });
      return listMemberships(db, u.id);
    }
  }
  // The sign-up rule may say no workspace of one's own (closed: people join through invitations).
  if (opts.newWorkspace === null) return [];
  const limits = opts.newWorkspace?.limits ?? null;
  const who = u.name?.trim() || u.email?.split("@")[0] || "My";
  const actor = `user:${u.id}`;
  // One batch, each step written only when the one before it wrote (changes()): of two racing first
  // sign-ins, only the first creates a workspace; the other finds the user already a member.
  await writeBatch(db, [
    sql`INSERT INTO workspace (name, limits) SELECT ${`${who}'s workspace`.slice(0, 100)}, ${limits}
      WHERE NOT EXISTS (SELECT 1 FROM workspace_member WHERE user_id = ${u.id})`,
    sql`INSERT INTO workspace_member (workspace_id, user_id, role) SELECT last_insert_rowid(), ${u.id}, 'owner' WHERE changes() > 0`,
    sql`INSERT INTO audit_log (workspace_id, actor, action, target_type, target_id)
      SELECT workspace_id, ${actor}, 'workspace.create', 'workspace', workspace_id FROM workspace_member
      WHERE user_id = ${u.id} AND changes() > 0`,
    sql`INSERT INTO audit_log (workspace_id, actor, action, target_type, target_id, metadata)
      SELECT workspace_id, ${actor}, 'member.add', 'user', user_id, json_object('role', 'owner') FROM workspace_member
      WHERE user_id = ${u.id} AND changes() > 0`,
  ]);
  return listMemberships(db, u.id);
}

export async function listMembers(db: Db, workspaceId: number) {
  return db
    .select({ userId: user.id, email: user.email, name: user.name, role: workspaceMember.role, joinedAt: workspaceMember.createdAt })
    .from(workspaceMember)
    .innerJoin(user, eq(user.id, workspaceMember.userId))
    .where(eq(workspaceMember.workspaceId, workspaceId))
    .orderBy(asc(workspaceMember.createdAt));
}

/** Invitations not yet accepted and not expired. */
export async function listInvitations(db: Db, workspaceId: number, nowMs = Date.now()) {
  return db
    .select({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      createdAt: invitation.createdAt,
    })
    .from(invitation)
    .where(and(eq(invitation.workspaceId, workspaceId), isNull(invitation.acceptedAt), gt(invitation.expiresAt, nowMs)))
    .orderBy(asc(invitation.id));
}

export const InviteInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email("must be an email address such as ana@example.com").max(254, "must be at most 254 characters")),
  role: z.enum(["admin", "member", "viewer"], { error: "must be admin, member or viewer" }).default("member"),
});
export type InviteInput = z.input<typeof InviteInput>;

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Members plus pending invitations, leaving out a pending invitation to `except` (a re-invitation replaces it). */
const seatCount = (workspaceId: number, nowMs: number, except: string) => sql`(
  (SELECT count(*) FROM workspace_member WHERE workspace_id = ${workspaceId})
  + (SELECT count(*) FROM invitation WHERE workspace_id = ${workspaceId} AND accepted_at IS NULL
       AND expires_at > ${nowMs} AND email <> ${except}))`;

async function seatsTaken(db: Db, workspaceId: number, nowMs: number, except: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT ${seatCount(workspaceId, nowMs, except)} AS n`);
  return Number(row?.n ?? 0);
}

/**
 * Invites someone by email. A pending invitation counts as a seat, so the `members` limit refuses
 * the invitation that would exceed it. Re-inviting the same address replaces the earlier link.
 * Returns the token once; only its hash is stored.
 */
export async function inviteMember(db: Db, workspaceId: number, input: InviteInput, actor: Actor, nowMs = Date.now()) {
  const data = parseInput(InviteInput, input, "invitation");
  const ws = await getWorkspace(db, workspaceId);
  const [already] = await db
    .select({ id: user.id })
    .from(workspaceMember)
    .innerJoin(user, eq(user.id, workspaceMember.userId))
    .where(and(eq(workspaceMember.workspaceId, workspaceId), sql`lower(${user.email}) = ${data.email}`));
  if (already)
    throw new ValidationError(`invitation: email ${data.email} is already a member`, [{ path: "email", message: "is already a member" }]);
  const limits = limitsOf(ws, nowMs).limits;
  const withThisOne = async () => (await seatsTaken(db, workspaceId, nowMs, data.email)) + 1;
  assertWithinLimits(limits, [{ kind: "count", key: "members", total: await withThisOne() }]);
  const { secret, hash } = newSecret("inv");
  const expiresAt = nowMs + INVITATION_TTL_MS;
  // The insert counts the seats again itself, so parallel invitations cannot overshoot the limit.
  const seatFree = limits.members === "Unlimited" ? sql`1` : sql`${seatCount(workspaceId, nowMs, data.email)} < ${limits.members}`;
  const [, inserted] = await writeBatch(db, [
    auditInsertWhen(
      { workspaceId, actor, action: "member.invite", targetType: "invitation", targetId: data.email, metadata: { role: data.role } },
      seatFree,
    ),
    sql`INSERT INTO invitation (workspace_id, email, role, token_hash, expires_at, invited_by)
      SELECT ${workspaceId}, ${data.email}, ${data.role}, ${hash}, ${expiresAt}, ${actor} WHERE ${seatFree}`,
    // Re-inviting replaces the earlier link, once the new one is in.
    sql`DELETE FROM invitation WHERE workspace_id = ${workspaceId} AND email = ${data.email} AND accepted_at IS NULL
      AND token_hash <> ${hash} AND EXISTS (SELECT 1 FROM invitation WHERE token_hash = ${hash})`,
  ]);
  if (inserted?.rowsAffected !== 1) {
    assertWithinLimits(limits, [{ kind: "count", key: "members", total: await withThisOne() }]);
    throw new ConflictError("the seats changed while inviting; try again");
  }
  return { email: data.email, role: data.role, expiresAt, token: secret, workspace: ws };
}

/** The invitation a token stands for, for the accept page. */
export async function findInvitation(db: Db, token: string) {
  if (!token.startsWith("vgl_inv_")) return null;
  const [row] = await db
    .select({ invitation, workspaceName: workspace.name })
    .from(invitation)
    .innerJoin(workspace, eq(workspace.id, invitation.workspaceId))
    .where(eq(invitation.tokenHash, sha256(token)));
  return row ?? null;
}

/**
 * Accepts an invitation as the signed-in user. The link works once, until it expires, and only for
 * the address it was sent to.
 */
export async function acceptInvitation(db: Db, token: string, u: { id: string; email?: string | null }, nowMs = Date.now()) {
  const found = await findInvitation(db, token);
  if (!found) throw new NotFoundError("invitation", "link");
  const inv = found.invitation;
  if (inv.acceptedAt !== null) throw new ConflictError("this invitation was already used");
  if (inv.expiresAt <= nowMs) throw new ConflictError("this invitation has expired; ask for a new one");
  if ((u.email ?? "").toLowerCase() !== inv.email.toLowerCase()) {
    throw new ConflictError(`this invitation was sent to ${inv.email}; sign in with that address to accept it`);
  }
  const [member] = await db
    .select({ role: workspaceMember.role })
    .from(workspaceMember)
    .where(and(eq(workspaceMember.workspaceId, inv.workspaceId), eq(workspaceMember.userId, u.id)));
  // Joining is conditional on this very accept having marked the invitation: an invitation withdrawn
  // meanwhile (its sender removed, or cancelled) or accepted twice at once lets nobody in.
  const marked = sql`EXISTS (SELECT 1 FROM invitation WHERE id = ${inv.id} AND accepted_at = ${nowMs})`;
  const [accepted] = await writeBatch(db, [
    db
      .update(invitation)
      .set({ acceptedAt: nowMs })
      .where(and(eq(invitation.id, inv.id), isNull(invitation.acceptedAt))),
    ...(member
      ? []
      : [
          sql`INSERT INTO workspace_member (workspace_id, user_id, role) SELECT ${inv.workspaceId}, ${u.id}, ${inv.role}
            WHERE ${marked} ON CONFLICT DO NOTHING`,
          auditInsertWhen(
            {
              workspaceId: inv.workspaceId,
              actor: `user:${u.id}`,
              action: "member.join",
              targetType: "user",
              targetId: u.id,
              metadata: { email: inv.email, role: inv.role },
            },
            marked,
          ),
        ]),
  ]);
  if (accepted?.rowsAffected !== 1) throw new NotFoundError("invitation", "link");
  return { workspaceId: inv.workspaceId, role: member?.role ?? inv.role };
}

export async function revokeInvitation(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  const res = await db
    .delete(invitation)
    .where(and(eq(invitation.id, id), eq(invitation.workspaceId, workspaceId), isNull(invitation.acceptedAt)))
    .returning({ email: invitation.email });
  if (res.length === 0) throw new NotFoundError("invitation", id);
  await auditInsert(db, { workspaceId, actor, action: "member.invite-revoke", targetType: "invitation", targetId: res[0]!.email });
}

const rank = (role: SQL) => sql`(CASE ${role} WHEN 'owner' THEN 3 WHEN 'admin' THEN 2 WHEN 'member' THEN 1 ELSE 0 END)`;

/**
 * True, inside a write, while `by` (an admin or owner) may remove `userId` or give them `newRole`: `by`
 * ranks at least as high as the member and the new role, and an owner leaves only while another
 * owner stays. The rule lives in the statement, so two owners demoting each other at once leave one.
 */
function mayChange(workspaceId: number, userId: string, byUserId: string, newRole: MemberRole | null): SQL {
  const keepsOwner =
    newRole === "owner"
      ? sql`1`
      : sql`(t.role <> 'owner'
    OR (SELECT count(*) FROM workspace_member o WHERE o.workspace_id = ${workspaceId} AND o.role = 'owner') > 1)`;
  return sql`EXISTS (SELECT 1 FROM workspace_member t
    JOIN workspace_member b ON b.workspace_id = t.workspace_id AND b.user_id = ${byUserId}
    WHERE t.workspace_id = ${workspaceId} AND t.user_id = ${userId}
      AND ${rank(sql`b.role`)} >= ${RANK.admin} AND ${rank(sql`b.role`)} >= ${rank(sql`t.role`)}
      AND ${rank(sql`b.role`)} >= ${newRole === null ? 0 : RANK[newRole]} AND ${keepsOwner})`;
}

/** Why `mayChange` refused, read afterwards: no such member, a role too low, or the last owner. */
async function refusal(db: Db, workspaceId: number, userId: string, by: { userId: string }, last: string): Promise<Error> {
  const members = await listMembers(db, workspaceId);
  const target = members.find((m) => m.userId === userId);
  const actor = members.find((m) => m.userId === by.userId);
  if (!target) return new NotFoundError("member", userId);
  if (!actor || RANK[actor.role] < Math.max(RANK.admin, RANK[target.role])) return new ForbiddenError(target.role);
  return new ConflictError(last);
}

/** What removing a member also withdraws: the API keys they created and the invitations they sent. */
export async function removalPreview(db: Db, workspaceId: number, userId: string, nowMs = Date.now()) {
  const [keys, invitations] = await Promise.all([
    db
      .select({ id: apiKey.id, name: apiKey.name, prefix: apiKey.prefix })
      .from(apiKey)
      .where(and(eq(apiKey.workspaceId, workspaceId), eq(apiKey.createdBy, `user:${userId}`), isNull(apiKey.revokedAt)))
      .orderBy(asc(apiKey.id)),
    db
      .select({ id: invitation.id, email: invitation.email, role: invitation.role })
      .from(invitation)
      .where(
        and(
          eq(invitation.workspaceId, workspaceId),
          eq(invitation.invitedBy, `user:${userId}`),
          isNull(invitation.acceptedAt),
          gt(invitation.expiresAt, nowMs),
        ),
      )
      .orderBy(asc(invitation.id)),
  ]);
  return { keys, invitations };
}

/**
 * Removes a member, and in the same transaction revokes the API keys they created and withdraws the
 * invitations they sent, each audited. Only an owner removes an owner, and the last owner stays.
 */
export async function removeMember(
  db: Db,
  workspaceId: number,
  userId: string,
  by: { userId: string; role: MemberRole },
): Promise<{ revokedKeys: number; withdrawnInvitations: number }> {
  const [target] = (await listMembers(db, workspaceId)).filter((m) => m.userId === userId);
  if (!target) throw new NotFoundError("member", userId);
  if (RANK[by.role] < RANK[target.role]) throw new ForbiddenError(target.role);
  const may = mayChange(workspaceId, userId, by.userId, null);
  const actor = `user:${by.userId}`;
  const creator = `user:${userId}`;
  const now = Date.now();
  const keys = sql`api_key WHERE workspace_id = ${workspaceId} AND created_by = ${creator} AND revoked_at IS NULL AND ${may}`;
  const invites = sql`invitation WHERE workspace_id = ${workspaceId} AND invited_by = ${creator} AND accepted_at IS NULL AND ${may}`;
  // Every step carries the same rule, and none before the last changes the members it reads: all happen, or none.
  const results = await writeBatch(db, [
    sql`INSERT INTO audit_log (workspace_id, actor, action, target_type, target_id, metadata)
      SELECT ${workspaceId}, ${actor}, 'api-key.revoke', 'api-key', id,
        json_object('name', name, 'prefix', prefix, 'reason', 'its creator was removed') FROM ${keys}`,
    sql`UPDATE api_key SET revoked_at = ${now} WHERE id IN (SELECT id FROM ${keys})`,
    sql`INSERT INTO audit_log (workspace_id, actor, action, target_type, target_id, metadata)
      SELECT ${workspaceId}, ${actor}, 'member.invite-revoke', 'invitation', email,
        json_object('reason', 'its sender was removed') FROM ${invites}`,
    sql`DELETE FROM invitation WHERE id IN (SELECT id FROM ${invites})`,
    auditInsertWhen(
      {
        workspaceId,
        actor,
        action: "member.remove",
        targetType: "user",
        targetId: userId,
        metadata: { email: target.email, role: target.role },
      },
      may,
    ),
    sql`DELETE FROM workspace_member WHERE workspace_id = ${workspaceId} AND user_id = ${userId} AND ${may}`,
  ]);
  if (results[5]?.rowsAffected !== 1) throw await refusal(db, workspaceId, userId, by, "the last owner cannot be removed");
  return { revokedKeys: results[1]?.rowsAffected ?? 0, withdrawnInvitations: results[3]?.rowsAffected ?? 0 };
}

const RoleInput = z.enum(MEMBER_ROLES, { error: `must be one of ${MEMBER_ROLES.join(", ")}` });

/** Gives a member another role. Only an owner makes or unmakes an owner, and the last owner stays one. */
export async function changeMemberRole(
  db: Db,
  workspaceId: number,
  userId: string,
  role: MemberRole,
  by: { userId: string; role: MemberRole },
): Promise<void> {
  const next = parseInput(z.object({ role: RoleInput }), { role }, "member").role;
  const [target] = (await listMembers(db, workspaceId)).filter((m) => m.userId === userId);
  if (!target) throw new NotFoundError("member", userId);
  if (RANK[by.role] < Math.max(RANK[target.role], RANK[next])) throw new ForbiddenError("owner");
  const may = mayChange(workspaceId, userId, by.userId, next);
  const [, changed] = await writeBatch(db, [
    auditInsertWhen(
      {
        workspaceId,
        actor: `user:${by.userId}`,
        action: "member.role",
        targetType: "user",
        targetId: userId,
        metadata: { email: target.email, before: target.role, after: next },
      },
      may,
    ),
    sql`UPDATE workspace_member SET role = ${next} WHERE workspace_id = ${workspaceId} AND user_id = ${userId} AND ${may}`,
  ]);
  if (changed?.rowsAffected !== 1) throw await refusal(db, workspaceId, userId, by, "the last owner cannot be demoted");
}

const RenameInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
});

export async function renameWorkspace(db: Db, workspaceId: number, input: z.input<typeof RenameInput>, actor: Actor): Promise<Workspace> {
  const data = parseInput(RenameInput, input, "workspace");
  const ws = await getWorkspace(db, workspaceId);
  await writeBatch(db, [
    db.update(workspace).set({ name: data.name, updatedAt: Date.now() }).where(eq(workspace.id, workspaceId)),
    auditInsert(db, {
      workspaceId,
      actor,
      action: "workspace.rename",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { before: ws.name, after: data.name },
    }),
  ]);
  return { ...ws, name: data.name };
}
