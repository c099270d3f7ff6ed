// Members, invitations and roles of a workspace (dashboard sign-in shell).
import { type Db, invitation, MEMBER_ROLES, user, workspace, workspaceMember, writeBatch } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditInsert } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";
import { newSecret, sha256 } from "../secrets";
import { createWorkspace, getWorkspace, limitsOf, type Workspace } from "./workspace";

export type MemberRole = (typeof MEMBER_ROLES)[number];
export { MEMBER_ROLES };

const RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

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
export async function requireMember(db: Db, workspaceId: number, userId: string, atLeast: MemberRole = "member"): Promise<Membership> {
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

export const canManage = (role: MemberRole): boolean => RANK[role] >= RANK.admin;

/**
 * A signed-in user's workspaces, creating one on first sign-in. When `localWorkspace` (id or slug) names a
 * workspace nobody belongs to yet (the one the embedded run bootstrapped), the first user to get
 * here becomes its owner instead; the claim is one conditional insert, so two racing sign-ins
 * cannot both win.
 */
export async function bootstrapUser(
  db: Db,
  u: { id: string; email?: string | null; name?: string | null },
  opts: { localWorkspace?: number | string } = {},
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
  const who = u.name?.trim() || u.email?.split("@")[0] || "My";
  const ws = await createWorkspace(db, { name: `${who}'s workspace`.slice(0, 100) }, `user:${u.id}`);
  await writeBatch(db, [
    db.insert(workspaceMember).values({ workspaceId: ws.id, userId: u.id, role: "owner" }).onConflictDoNothing(),
    auditInsert(db, {
      workspaceId: ws.id,
      actor: `user:${u.id}`,
      action: "member.add",
      targetType: "user",
      targetId: u.id,
      metadata: { role: "owner" },
    }),
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
  role: z.enum(["admin", "member"], { error: "must be admin or member" }).default("member"),
});
export type InviteInput = z.input<typeof InviteInput>;

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

async function seatsTaken(db: Db, workspaceId: number, nowMs: number): Promise<number> {
  const [members] = await db.select({ n: count() }).from(workspaceMember).where(eq(workspaceMember.workspaceId, workspaceId));
  const pending = await listInvitations(db, workspaceId, nowMs);
  return (members?.n ?? 0) + pending.length;
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
  const previous = (await listInvitations(db, workspaceId, nowMs)).filter((i) => i.email === data.email);
  const taken = (await seatsTaken(db, workspaceId, nowMs)) - previous.length;
  assertWithinLimits(limitsOf(ws, nowMs).limits, [{ kind: "count", key: "members", total: taken + 1 }]);
  const { secret, hash } = newSecret("inv");
  const expiresAt = nowMs + INVITATION_TTL_MS;
  await writeBatch(db, [
    ...previous.map((p) => db.delete(invitation).where(eq(invitation.id, p.id))),
    db.insert(invitation).values({ workspaceId, email: data.email, role: data.role, tokenHash: hash, expiresAt }),
    auditInsert(db, {
      workspaceId,
      actor,
      action: "member.invite",
      targetType: "invitation",
      targetId: data.email,
      metadata: { role: data.role },
    }),
  ]);
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
  await writeBatch(db, [
    db
      .update(invitation)
      .set({ acceptedAt: nowMs })
      .where(and(eq(invitation.id, inv.id), isNull(invitation.acceptedAt))),
    ...(member
      ? []
      : [
          db.insert(workspaceMember).values({ workspaceId: inv.workspaceId, userId: u.id, role: inv.role }).onConflictDoNothing(),
          auditInsert(db, {
            workspaceId: inv.workspaceId,
            actor: `user:${u.id}`,
            action: "member.join",
            targetType: "user",
            targetId: u.id,
            metadata: { email: inv.email, role: inv.role },
          }),
        ]),
  ]);
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

/** Removes a member. Only an owner removes an owner, and the last owner stays. */
export async function removeMember(db: Db, workspaceId: number, userId: string, by: { userId: string; role: MemberRole }): Promise<void> {
  const members = await listMembers(db, workspaceId);
  const target = members.find((m) => m.userId === userId);
  if (!target) throw new NotFoundError("member", userId);
  if (RANK[by.role] < RANK[target.role]) throw new ForbiddenError(target.role);
  if (target.role === "owner" && members.filter((m) => m.role === "owner").length === 1) {
    throw new ConflictError("the last owner cannot be removed");
  }
  await writeBatch(db, [
    db.delete(workspaceMember).where(and(eq(workspaceMember.workspaceId, workspaceId), eq(workspaceMember.userId, userId))),
    auditInsert(db, {
      workspaceId,
      actor: `user:${by.userId}`,
      action: "member.remove",
      targetType: "user",
      targetId: userId,
      metadata: { email: target.email, role: target.role },
    }),
  ]);
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
