import { type Conn, type Db, workspace, writeBatch } from "@vigil/db-schema";
import {
  effectiveLimits,
  type Limits,
  LimitsPatch,
  type LimitsWarning,
  PRESET_NAMES,
  type PresetName,
  parseLimits,
  planExpired,
  presets,
} from "@vigil/limits";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditInsert } from "../audit";
import { NotFoundError, parseInput, ValidationError } from "../errors";

export type Workspace = typeof workspace.$inferSelect;

export async function getWorkspace(db: Conn, id: number): Promise<Workspace> {
  const [ws] = await db.select().from(workspace).where(eq(workspace.id, id));
  if (!ws) throw new NotFoundError("workspace", id);
  return ws;
}

export async function listWorkspaces(db: Db): Promise<Workspace[]> {
  return db.select().from(workspace).orderBy(workspace.id);
}

const WorkspaceInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  slug: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/, "must be lowercase letters, digits and dashes")
    .optional(),
});

/** A new workspace has no limits set (restricted) and no channels. */
export async function createWorkspace(db: Db, input: z.input<typeof WorkspaceInput>, actor: Actor): Promise<Workspace> {
  const data = parseInput(WorkspaceInput, input, "workspace");
  const [ws] = await db
    .insert(workspace)
    .values({ name: data.name, slug: data.slug ?? null })
    .returning();
  await auditInsert(db, { workspaceId: ws!.id, actor, action: "workspace.create", targetType: "workspace", targetId: ws!.id });
  return ws!;
}

export interface WorkspaceLimits {
  limits: Limits;
  /** True when the plan has ended and restricted limits apply. */
  expired: boolean;
}

const warned = new Set<string>();
const MAX_WARNED = 10_000;

/**
 * Reports a problem in a workspace's `limits` once per workspace and column text: every request reads
 * the limits, and a warning per request would drown the log. Fixing the text and breaking it again warns again.
 */
function warnOnce(ws: Workspace): LimitsWarning {
  return (message) => {
    const key = JSON.stringify([ws.id, ws.limits, message]);
    if (warned.has(key)) return;
    if (warned.size >= MAX_WARNED) warned.clear();
    warned.add(key);
    process.emitWarning(`workspace ${ws.id}: ${message}`, "VigilLimits");
  };
}

export function limitsOf(ws: Workspace, nowMs = Date.now(), warn: LimitsWarning = warnOnce(ws)): WorkspaceLimits {
  return { limits: effectiveLimits(ws, nowMs, warn), expired: planExpired(ws, nowMs) };
}

export async function getEffectiveLimits(db: Db, workspaceId: number, nowMs = Date.now()): Promise<WorkspaceLimits> {
  return limitsOf(await getWorkspace(db, workspaceId), nowMs);
}

/**
 * Sets limits from a preset name or a partial object merged over what is stored.
 * The stored column always holds all 17 keys afterwards.
 */
export async function setLimits(db: Db, workspaceId: number, input: PresetName | unknown, actor: Actor): Promise<Limits> {
  const ws = await getWorkspace(db, workspaceId);
  let next: Limits;
  if (typeof input === "string") {
    if (!PRESET_NAMES.includes(input as PresetName)) {
      throw new ValidationError(`limits: unknown preset "${input}" (one of ${PRESET_NAMES.join(", ")})`, [
        { path: "preset", message: `must be one of ${PRESET_NAMES.join(", ")}` },
      ]);
    }
    next = { ...presets[input as PresetName] };
  } else {
    const patch = parseInput(LimitsPatch, input, "limits");
    next = { ...parseLimits(ws.limits, () => {}), ...patch } as Limits;
  }
  await writeBatch(db, [
    db
      .update(workspace)
      .set({ limits: JSON.stringify(next), updatedAt: Date.now() })
      .where(eq(workspace.id, workspaceId)),
    auditInsert(db, {
      workspaceId,
      actor,
      action: "workspace.limits.update",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { before: ws.limits, after: next },
    }),
  ]);
  return next;
}

const unixSeconds = z.number().int("must be whole seconds").min(0, "must be a unix time in seconds");
const PlanInput = z.object({
  plan: z.string().trim().min(1, "must not be empty").max(50),
  paidUntil: unixSeconds.nullable().optional(),
  endsAt: unixSeconds.nullable().optional(),
});

export async function setPlan(db: Db, workspaceId: number, input: z.input<typeof PlanInput>, actor: Actor): Promise<Workspace> {
  const data = parseInput(PlanInput, input, "plan");
  const ws = await getWorkspace(db, workspaceId);
  const patch = {
    plan: data.plan,
    paidUntil: data.paidUntil === undefined ? ws.paidUntil : data.paidUntil,
    endsAt: data.endsAt === undefined ? ws.endsAt : data.endsAt,
    updatedAt: Date.now(),
  };
  await writeBatch(db, [
    db.update(workspace).set(patch).where(eq(workspace.id, workspaceId)),
    auditInsert(db, {
      workspaceId,
      actor,
      action: "workspace.plan.update",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { before: { plan: ws.plan, paidUntil: ws.paidUntil, endsAt: ws.endsAt }, after: data },
    }),
  ]);
  return { ...ws, ...patch };
}

/** One change to a workspace's own settings and its audit row (`workspace.<action>`), in one write. */
export async function updateWorkspaceAudited(
  db: Db,
  workspaceId: number,
  set: Partial<Omit<Workspace, "id" | "createdAt">>,
  actor: Actor,
  action: string,
): Promise<void> {
  await writeBatch(db, [
    db
      .update(workspace)
      .set({ ...set, updatedAt: Date.now() })
      .where(eq(workspace.id, workspaceId)),
    auditInsert(db, { workspaceId, actor, action: `workspace.${action}`, targetType: "workspace", targetId: workspaceId }),
  ]);
}
