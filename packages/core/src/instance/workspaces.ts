import { type Db, invitation, monitor, signupInvitation, user, workspace, workspaceMember, writeBatch } from "@vigil/db-schema";
import { coerceLimitValues, type Limits, PRESET_NAMES, type PresetName, planExpired, presets, restricted } from "@vigil/limits";
import { asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { createWorkspace, getWorkspace, limitsOf, setLimits, setPlan, type Workspace } from "../access";
import { auditInsert } from "../audit";
import { parseInput, ValidationError } from "../errors";
import { newSecret } from "../secrets";
import { instanceAuditInsert } from "./audit";

/** How a workspace stands: its own limits, restricted because none are set, or restricted because its plan ended. */
export type WorkspaceState = "active" | "restricted" | "ended";

export function workspaceState(ws: Workspace, nowMs = Date.now()): WorkspaceState {
  if (planExpired(ws, nowMs)) return "ended";
  const { limits } = limitsOf(ws, nowMs, () => {});
  return JSON.stringify(limits) === JSON.stringify(restricted) ? "restricted" : "active";
}

export interface InstanceWorkspace {
  id: number;
  name: string | null;
  plan: string | null;
  paidUntil: number | null;
  endsAt: number | null;
  state: WorkspaceState;
  monitors: number;
  members: { userId: string; email: string | null; role: string; disabled: boolean }[];
  limits: Limits;
  /** The column as stored (null: nothing set), so an operator sees what SQL wrote. */
  storedLimits: string | null;
}

/** Every workspace with its members, monitor count, plan and state; read fresh on every call (SQL edits show at once). */
export async function listInstanceWorkspaces(db: Db, nowMs = Date.now()): Promise<InstanceWorkspace[]> {
  const [rows, counts, members] = await Promise.all([
    db.select().from(workspace).orderBy(asc(workspace.id)),
    db.select({ workspaceId: monitor.workspaceId, n: count() }).from(monitor).groupBy(monitor.workspaceId),
    db
      .select({
        workspaceId: workspaceMember.workspaceId,
        userId: user.id,
        email: user.email,
        role: workspaceMember.role,
        disabledAt: user.disabledAt,
      })
      .from(workspaceMember)
      .innerJoin(user, eq(user.id, workspaceMember.userId))
      .orderBy(asc(workspaceMember.createdAt)),
  ]);
  const monitorsOf = new Map(counts.map((c) => [c.workspaceId, c.n]));
  return rows.map((ws) => ({
    id: ws.id,
    name: ws.name,
    plan: ws.plan,
    paidUntil: ws.paidUntil,
    endsAt: ws.endsAt,
    state: workspaceState(ws, nowMs),
    monitors: monitorsOf.get(ws.id) ?? 0,
    members: members
      .filter((m) => m.workspaceId === ws.id)
      .map((m) => ({ userId: m.userId, email: m.email, role: m.role, disabled: m.disabledAt !== null })),
    limits: limitsOf(ws, nowMs, () => {}).limits,
    storedLimits: ws.limits,
  }));
}

export async function getInstanceWorkspace(db: Db, id: number): Promise<InstanceWorkspace | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return (await listInstanceWorkspaces(db)).find((w) => w.id === id) ?? null;
}

export const AdminLimitsInput = z.object({
  preset: z.enum(PRESET_NAMES, { error: `must be one of ${PRESET_NAMES.join(", ")}` }).optional(),
  /** Keys to set over the preset (or over what is stored): JSON values, or text as a form or `--set` gives them. */
  set: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Sets a workspace's limits as an instance admin: a preset as the starting point, keys over it. Recorded in the
 * workspace's audit log (by setLimits) and the instance's.
 */
export async function adminSetLimits(db: Db, workspaceId: number, input: z.input<typeof AdminLimitsInput>, actor: string): Promise<Limits> {
  const data = parseInput(AdminLimitsInput, input, "limits");
  if (!data.preset && Object.keys(data.set).length === 0)
    throw new ValidationError("limits: give a preset or at least one key to set", [
      { path: "preset", message: "give a preset or keys to set" },
    ]);
  const patch = { ...(data.preset ? presets[data.preset as PresetName] : {}), ...coerceLimitValues(data.set) };
  const next = await setLimits(db, workspaceId, patch, actor);
  await instanceAuditInsert(db, {
    actor,
    action: "workspace.limits.update",
    targetType: "workspace",
    targetId: workspaceId,
    metadata: { preset: data.preset ?? null, set: data.set },
  });
  return next;
}

const date = z.union([z.number(), z.string(), z.null()]).optional();
export const AdminPlanInput = z.object({ plan: z.string(), paidUntil: date, endsAt: date });

/** "2026-12-31", unix seconds, "" or null (none) → unix seconds or null; undefined keeps what is stored. */
function toUnixSeconds(v: number | string | null | undefined, field: string): number | null | undefined {
  if (v === undefined || typeof v === "number") return v;
  if (v === null || v.trim() === "" || v.trim() === "none") return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? `${v.trim()}T00:00:00Z` : v.trim());
  if (Number.isNaN(ms))
    throw new ValidationError(`plan: ${field} must be a date (2026-12-31), unix seconds or empty`, [
      { path: field, message: "must be a date (2026-12-31), unix seconds or empty" },
    ]);
  return Math.floor(ms / 1000);
}

export async function adminSetPlan(db: Db, workspaceId: number, input: z.input<typeof AdminPlanInput>, actor: string): Promise<Workspace> {
  const data = parseInput(AdminPlanInput, input, "plan");
  const ws = await setPlan(
    db,
    workspaceId,
    { plan: data.plan, paidUntil: toUnixSeconds(data.paidUntil, "paidUntil"), endsAt: toUnixSeconds(data.endsAt, "endsAt") },
    actor,
  );
  await instanceAuditInsert(db, {
    actor,
    action: "workspace.plan.update",
    targetType: "workspace",
    targetId: workspaceId,
    metadata: { plan: ws.plan, paidUntil: ws.paidUntil, endsAt: ws.endsAt },
  });
  return ws;
}

const Email = z.string().trim().toLowerCase().pipe(z.email("must be an email address such as ana@example.com").max(254));

export const CreateForInput = z.object({
  email: Email,
  name: z.string().trim().max(100).optional(),
  preset: z.enum(PRESET_NAMES, { error: `must be one of ${PRESET_NAMES.join(", ")}` }).default("restricted"),
});

/**
 * Creates a workspace for someone: theirs at once when they have an account, else an owner invitation to
 * their address (the token is returned once, for the link). Works whatever the sign-up rule: the invitation
 * lets the address in.
 */
export async function createWorkspaceFor(db: Db, input: z.input<typeof CreateForInput>, actor: string, nowMs = Date.now()) {
  const data = parseInput(CreateForInput, input, "workspace");
  const ws = await createWorkspace(db, { name: data.name || `${data.email.split("@")[0]}'s workspace`.slice(0, 100) }, actor);
  if (data.preset !== "restricted") await setLimits(db, ws.id, data.preset, actor);
  const [existing] = await db.select({ id: user.id }).from(user).where(sql`lower(${user.email}) = ${data.email}`);
  let token: string | null = null;
  if (existing) {
    await writeBatch(db, [
      db.insert(workspaceMember).values({ workspaceId: ws.id, userId: existing.id, role: "owner" }),
      auditInsert(db, {
        workspaceId: ws.id,
        actor,
        action: "member.add",
        targetType: "user",
        targetId: existing.id,
        metadata: { role: "owner" },
      }),
    ]);
  } else {
    const { secret, hash } = newSecret("inv");
    token = secret;
    await writeBatch(db, [
      db.insert(invitation).values({
        workspaceId: ws.id,
        email: data.email,
        role: "owner",
        tokenHash: hash,
        expiresAt: nowMs + 30 * 24 * 60 * 60 * 1000,
        invitedBy: actor,
      }),
      auditInsert(db, {
        workspaceId: ws.id,
        actor,
        action: "member.invite",
        targetType: "invitation",
        targetId: data.email,
        metadata: { role: "owner" },
      }),
    ]);
  }
  await instanceAuditInsert(db, {
    actor,
    action: "workspace.create",
    targetType: "workspace",
    targetId: ws.id,
    metadata: { for: data.email, preset: data.preset, joined: existing !== undefined },
  });
  return { workspace: await getWorkspace(db, ws.id), email: data.email, joined: existing !== undefined, invitationToken: token };
}

export const InstanceInviteInput = z.object({
  email: Email,
  preset: z.enum(PRESET_NAMES, { error: `must be one of ${PRESET_NAMES.join(", ")}` }).default("restricted"),
});

/** Invites an address to the instance (VIGIL_SIGNUP=invite): their first sign-in creates their workspace with `preset`. */
export async function inviteToInstance(db: Db, input: z.input<typeof InstanceInviteInput>, actor: string) {
  const data = parseInput(InstanceInviteInput, input, "invitation");
  await writeBatch(db, [
    db
      .insert(signupInvitation)
      .values({ email: data.email, preset: data.preset, invitedBy: actor })
      .onConflictDoUpdate({ target: signupInvitation.email, set: { preset: data.preset, invitedBy: actor, usedAt: null } }),
    instanceAuditInsert(db, {
      actor,
      action: "instance.invite",
      targetType: "email",
      targetId: data.email,
      metadata: { preset: data.preset },
    }),
  ]);
  return data;
}

export async function listInstanceInvitations(db: Db) {
  return db.select().from(signupInvitation).orderBy(asc(signupInvitation.createdAt));
}
