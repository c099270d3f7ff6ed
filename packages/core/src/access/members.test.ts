import { auditLog, type Db, invitation, workspaceMember } from "@vigil/db-schema";
import { LimitExceededError } from "@vigil/limits";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { searchAuditLog } from "../audit";
import { NotFoundError, ValidationError } from "../errors";
import { insertUser, useTestDatabase } from "../testing";
import { createApiKey, verifyApiKey } from "./api-keys";
import {
  acceptInvitation,
  bootstrapUser,
  changeMemberRole,
  ForbiddenError,
  INVITATION_TTL_MS,
  inviteMember,
  listInvitations,
  listMembers,
  removalPreview,
  removeMember,
  requireMember,
} from "./members";
import { createWorkspace, setLimits } from "./workspace";

let db: Db;
useTestDatabase((t) => {
  db = t.db;
});

const newUser = (email?: string) => insertUser(db, email);

async function ownWorkspace(u: { id: string; email: string }) {
  const [m] = await bootstrapUser(db, u);
  return m!.workspace;
}

describe("first sign-in", () => {
  it("creates a restricted workspace owned by the new user, once", async () => {
    const ana = await newUser("ana@example.com");
    const first = await bootstrapUser(db, ana);
    expect(first).toHaveLength(1);
    expect(first[0]!.role).toBe("owner");
    expect(first[0]!.workspace.limits).toBeNull();
    expect(first[0]!.workspace.name).toBe("ana's workspace");
    const again = await bootstrapUser(db, ana);
    expect(again.map((m) => m.workspace.id)).toEqual([first[0]!.workspace.id]);
  });

  it("makes the first user owner of the local workspace that has no members, and only the first", async () => {
    const local = await createWorkspace(db, { name: "Local" }, "operator");
    const [a, b] = [await newUser(), await newUser()];
    const [ma, mb] = await Promise.all([
      bootstrapUser(db, a, { localWorkspace: local.id }),
      bootstrapUser(db, b, { localWorkspace: local.id }),
    ]);
    const owners = [ma, mb].filter((m) => m[0]!.workspace.id === local.id);
    expect(owners).toHaveLength(1);
    expect(owners[0]![0]!.role).toBe("owner");
    const other = [ma, mb].find((m) => m[0]!.workspace.id !== local.id)!;
    expect(other[0]!.workspace.name).toMatch(/'s workspace$/);
    expect((await listMembers(db, local.id)).map((m) => m.role)).toEqual(["owner"]);
  });

  it("names the local workspace by slug too, and ignores one that does not exist", async () => {
    const local = await createWorkspace(db, { name: "Local by slug", slug: "local-slug" }, "operator");
    const first = await bootstrapUser(db, await newUser(), { localWorkspace: "local-slug" });
    expect(first.map((m) => [m.workspace.id, m.role])).toEqual([[local.id, "owner"]]);
    const stray = await bootstrapUser(db, await newUser(), { localWorkspace: "no-such-slug" });
    expect(stray[0]!.workspace.name).toMatch(/'s workspace$/);
  });
});

describe("roles and workspaces", () => {
  it("another workspace's id answers not found, and a member is refused admin work", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const ws = await ownWorkspace(owner);
    await bootstrapUser(db, stranger);
    await expect(requireMember(db, ws.id, stranger.id)).rejects.toThrow(NotFoundError);
    await expect(requireMember(db, 999_999, owner.id)).rejects.toThrow(NotFoundError);
    await setLimits(db, ws.id, { members: 5 }, "operator");
    const bob = await newUser();
    const { token } = await inviteMember(db, ws.id, { email: bob.email, role: "member" }, `user:${owner.id}`);
    await acceptInvitation(db, token, bob);
    expect((await requireMember(db, ws.id, bob.id)).role).toBe("member");
    await expect(requireMember(db, ws.id, bob.id, "admin")).rejects.toThrow(ForbiddenError);
    await expect(removeMember(db, ws.id, owner.id, { userId: bob.id, role: "member" })).rejects.toThrow(ForbiddenError);
  });

  it("a viewer is invited as such, reads but ranks below a member, and role changes to and from viewer are audited", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: 5 }, "operator");
    const vic = await newUser();
    const { token } = await inviteMember(db, ws.id, { email: vic.email, role: "viewer" }, `user:${owner.id}`);
    expect((await acceptInvitation(db, token, vic)).role).toBe("viewer");
    expect((await requireMember(db, ws.id, vic.id)).role).toBe("viewer");
    await expect(requireMember(db, ws.id, vic.id, "member")).rejects.toThrow(ForbiddenError);
    // A viewer changes nobody's role, not even their own.
    await expect(changeMemberRole(db, ws.id, vic.id, "member", { userId: vic.id, role: "viewer" })).rejects.toThrow(ForbiddenError);
    await changeMemberRole(db, ws.id, vic.id, "member", { userId: owner.id, role: "owner" });
    await changeMemberRole(db, ws.id, vic.id, "viewer", { userId: owner.id, role: "owner" });
    const roles = (await searchAuditLog(db, ws.id, { action: "member.role" })).entries.map((e) => e.metadata);
    expect(roles).toEqual([
      expect.objectContaining({ before: "member", after: "viewer" }),
      expect.objectContaining({ before: "viewer", after: "member" }),
    ]);
  });
});

describe("invitations", () => {
  it("the members limit refuses the invitation that would exceed it, naming the key, and writes nothing", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    // Restricted: members = 1, and the owner already takes it.
    const err = await inviteMember(db, ws.id, { email: "x@example.com" }, "user:o").catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect(err.message).toBe("members: the limit is 1, this would make 2");
    expect(await db.select().from(invitation).where(eq(invitation.workspaceId, ws.id))).toHaveLength(0);

    await setLimits(db, ws.id, { members: 2 }, "operator");
    await inviteMember(db, ws.id, { email: "X@Example.com " }, "user:o");
    // Re-inviting the same address replaces the link rather than taking a second seat.
    const again = await inviteMember(db, ws.id, { email: "x@example.com", role: "admin" }, "user:o");
    expect(await listInvitations(db, ws.id)).toMatchObject([{ email: "x@example.com", role: "admin" }]);
    await expect(inviteMember(db, ws.id, { email: "y@example.com" }, "user:o")).rejects.toThrow(
      /^members: the limit is 2, this would make 3$/,
    );

    await setLimits(db, ws.id, { members: "Unlimited" }, "operator");
    await inviteMember(db, ws.id, { email: "y@example.com" }, "user:o");
    expect(again.token).toMatch(/^vgl_inv_/);
  });

  it("bad input names the field and the rule", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: "Unlimited" }, "operator");
    await expect(inviteMember(db, ws.id, { email: "not-an-email" }, "user:o")).rejects.toThrow(
      /invitation: email must be an email address/,
    );
    await expect(inviteMember(db, ws.id, { email: "a@b.co", role: "owner" as "admin" }, "user:o")).rejects.toThrow(
      /role must be admin, member or viewer/,
    );
    await expect(inviteMember(db, ws.id, { email: owner.email }, "user:o")).rejects.toThrow(ValidationError);
    expect(await listInvitations(db, ws.id)).toHaveLength(0);
  });

  it("an invitation link works once, until it expires, and only for its address", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: "Unlimited" }, "operator");
    const now = 1_800_000_000_000;
    const carla = await newUser("carla@example.com");
    const eve = await newUser("eve@example.com");
    const { token } = await inviteMember(db, ws.id, { email: "carla@example.com", role: "admin" }, `user:${owner.id}`, now);
    await expect(acceptInvitation(db, token, eve, now + 1)).rejects.toThrow(/sent to carla@example.com/);
    await expect(acceptInvitation(db, token, carla, now + INVITATION_TTL_MS)).rejects.toThrow(/expired/);
    expect(await acceptInvitation(db, token, carla, now + 1)).toEqual({ workspaceId: ws.id, role: "admin" });
    await expect(acceptInvitation(db, token, carla, now + 2)).rejects.toThrow(/already used/);
    await expect(acceptInvitation(db, "vgl_inv_nope", carla, now)).rejects.toThrow(NotFoundError);
    expect((await listMembers(db, ws.id)).map((m) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      ["carla@example.com", "admin"],
    ]);
  });

  it("removing members: the last owner stays, an admin cannot remove an owner, removal is audited", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: "Unlimited", "audit-log": true }, "operator");
    const admin = await newUser();
    const { token } = await inviteMember(db, ws.id, { email: admin.email, role: "admin" }, `user:${owner.id}`);
    await acceptInvitation(db, token, admin);
    await expect(removeMember(db, ws.id, owner.id, { userId: admin.id, role: "admin" })).rejects.toThrow(ForbiddenError);
    await expect(removeMember(db, ws.id, owner.id, { userId: owner.id, role: "owner" })).rejects.toThrow(/last owner/);
    await expect(removeMember(db, ws.id, "u-nobody", { userId: owner.id, role: "owner" })).rejects.toThrow(NotFoundError);
    await removeMember(db, ws.id, admin.id, { userId: owner.id, role: "owner" });
    expect(await db.select().from(workspaceMember).where(eq(workspaceMember.workspaceId, ws.id))).toHaveLength(1);
    const { entries } = await searchAuditLog(db, ws.id, { action: "member.remove" });
    expect(entries.map((e) => [e.actor, e.targetId])).toEqual([[`user:${owner.id}`, admin.id]]);
    const all = await db.select().from(auditLog).where(eq(auditLog.workspaceId, ws.id));
    expect(all.map((a) => a.action)).toEqual([
      "workspace.create",
      "member.add",
      "workspace.limits.update",
      "member.invite",
      "member.join",
      "member.remove",
    ]);
  });
});

async function join(ws: { id: number }, by: { id: string }, role: "admin" | "member", who = newUser()) {
  const u = await who;
  const { token } = await inviteMember(db, ws.id, { email: u.email, role }, `user:${by.id}`);
  await acceptInvitation(db, token, u);
  return u;
}

describe("a removed member", () => {
  it("removing an admin revokes the keys they created, audited, and keeps the others", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: "Unlimited", "audit-log": true }, "operator");
    const admin = await join(ws, owner, "admin");
    const { key } = await createApiKey(db, ws.id, { name: "admin's laptop" }, `user:${admin.id}`);
    const { key: ownerKey } = await createApiKey(db, ws.id, { name: "ci" }, `user:${owner.id}`);
    expect(await verifyApiKey(db, key)).not.toBeNull();
    expect((await removalPreview(db, ws.id, admin.id)).keys.map((k) => k.name)).toEqual(["admin's laptop"]);

    expect(await removeMember(db, ws.id, admin.id, { userId: owner.id, role: "owner" })).toEqual({
      revokedKeys: 1,
      withdrawnInvitations: 0,
    });
    expect(await verifyApiKey(db, key)).toBeNull();
    expect(await verifyApiKey(db, ownerKey)).not.toBeNull();
    const { entries } = await searchAuditLog(db, ws.id, { action: "api-key.revoke" });
    expect(entries.map((e) => [e.actor, e.metadata])).toEqual([
      [`user:${owner.id}`, { name: "admin's laptop", prefix: expect.any(String), reason: "its creator was removed" }],
    ]);
  });

  it("a removed admin's pending invitation can no longer be accepted", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: "Unlimited", "audit-log": true }, "operator");
    const admin = await join(ws, owner, "admin");
    const accomplice = await newUser();
    const { token } = await inviteMember(db, ws.id, { email: accomplice.email, role: "admin" }, `user:${admin.id}`);
    await inviteMember(db, ws.id, { email: "kept@example.com" }, `user:${owner.id}`);
    expect((await removalPreview(db, ws.id, admin.id)).invitations.map((i) => i.email)).toEqual([accomplice.email]);

    expect((await removeMember(db, ws.id, admin.id, { userId: owner.id, role: "owner" })).withdrawnInvitations).toBe(1);
    await expect(acceptInvitation(db, token, accomplice)).rejects.toThrow(NotFoundError);
    await expect(requireMember(db, ws.id, accomplice.id)).rejects.toThrow(NotFoundError);
    expect((await listInvitations(db, ws.id)).map((i) => i.email)).toEqual(["kept@example.com"]);
    const { entries } = await searchAuditLog(db, ws.id, { action: "member.invite-revoke" });
    expect(entries.map((e) => e.targetId)).toEqual([accomplice.email]);
  });
});

/** A workspace with two owners, Ana and Ben (Ben promoted from admin). */
async function twoOwners() {
  const ana = await newUser();
  const ws = await ownWorkspace(ana);
  await setLimits(db, ws.id, { members: "Unlimited" }, "operator");
  const ben = await join(ws, ana, "admin");
  await changeMemberRole(db, ws.id, ben.id, "owner", { userId: ana.id, role: "owner" });
  return { ana, ben, ws };
}

describe("concurrent requests", () => {
  it("two owners demoting each other at once leave one owner", async () => {
    const { ana, ben, ws } = await twoOwners();
    const results = await Promise.allSettled([
      changeMemberRole(db, ws.id, ben.id, "admin", { userId: ana.id, role: "owner" }),
      changeMemberRole(db, ws.id, ana.id, "admin", { userId: ben.id, role: "owner" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/last owner cannot be demoted|needs the owner role/);
    expect((await listMembers(db, ws.id)).filter((m) => m.role === "owner")).toHaveLength(1);
  });

  it("two owners removing each other at once leave one owner", async () => {
    const { ana, ben, ws } = await twoOwners();
    const results = await Promise.allSettled([
      removeMember(db, ws.id, ben.id, { userId: ana.id, role: "owner" }),
      removeMember(db, ws.id, ana.id, { userId: ben.id, role: "owner" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await listMembers(db, ws.id)).map((m) => m.role)).toEqual(["owner"]);
  });

  it("a role change names the rule it breaks and writes nothing", async () => {
    const ana = await newUser();
    const ws = await ownWorkspace(ana);
    await setLimits(db, ws.id, { members: "Unlimited" }, "operator");
    const ben = await join(ws, ana, "admin");
    await expect(changeMemberRole(db, ws.id, ana.id, "admin", { userId: ana.id, role: "owner" })).rejects.toThrow(
      "the last owner cannot be demoted",
    );
    await expect(changeMemberRole(db, ws.id, ben.id, "owner", { userId: ben.id, role: "admin" })).rejects.toThrow(ForbiddenError);
    await expect(changeMemberRole(db, ws.id, ben.id, "boss" as "admin", { userId: ana.id, role: "owner" })).rejects.toThrow(
      /member: role must be one of owner, admin, member/,
    );
    expect((await listMembers(db, ws.id)).map((m) => m.role)).toEqual(["owner", "admin"]);
  });

  it("parallel invitations never exceed the seat limit", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    await setLimits(db, ws.id, { members: 3 }, "operator");
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => inviteMember(db, ws.id, { email: `seat${i}@example.com` }, `user:${owner.id}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(LimitExceededError);
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/members: the limit is 3, this would make 4/);
    }
    expect(await listInvitations(db, ws.id)).toHaveLength(2);
    expect(await searchAuditLog(db, ws.id, { action: "member.invite" }).then((r) => r.entries)).toHaveLength(2);
  });

  it("a new user's parallel first sign-ins create one workspace", async () => {
    const u = await newUser();
    const all = await Promise.all(Array.from({ length: 5 }, () => bootstrapUser(db, u)));
    expect(new Set(all.flat().map((m) => m.workspace.id)).size).toBe(1);
    const wsId = all[0]![0]!.workspace.id;
    const audit = await db.select().from(auditLog).where(eq(auditLog.workspaceId, wsId));
    expect(audit.map((a) => a.action)).toEqual(["workspace.create", "member.add"]);
  });
});

describe("audit log search", () => {
  it("pages newest first and filters by actor and action", async () => {
    const owner = await newUser();
    const ws = await ownWorkspace(owner);
    for (let i = 0; i < 5; i++) await setLimits(db, ws.id, { monitors: i + 2 }, i % 2 ? "operator" : "user:x");
    const first = await searchAuditLog(db, ws.id, { limit: 4 });
    expect(first.entries).toHaveLength(4);
    const second = await searchAuditLog(db, ws.id, { limit: 4, before: first.nextBefore! });
    expect(second.entries.map((e) => e.action)).toEqual(["workspace.limits.update", "member.add", "workspace.create"]);
    expect(second.nextBefore).toBeNull();
    const byOperator = await searchAuditLog(db, ws.id, { actor: "operator", action: "workspace.limits.update" });
    expect(byOperator.entries).toHaveLength(2);
  });
});
