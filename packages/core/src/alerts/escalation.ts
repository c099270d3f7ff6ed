// Escalation policies: workspace objects naming who hears, and when, while an alert stays unacknowledged.
import { type EscalationPolicy, EscalationPolicyInput } from "@vigil/api-contract";
import { type Conn, type Db, escalationPolicy, monitor, notificationChannel } from "@vigil/db-schema";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { type Actor, audited } from "../audit";
import { ConflictError, NotFoundError, parseInput, ValidationError } from "../errors";

type Row = typeof escalationPolicy.$inferSelect;

async function channelIds(tx: Conn, workspaceId: number, input: EscalationPolicyInput) {
  const names = [...new Set(input.steps.flatMap((s) => s.channels))];
  const rows = await tx
    .select({ id: notificationChannel.id, name: notificationChannel.name })
    .from(notificationChannel)
    .where(and(eq(notificationChannel.workspaceId, workspaceId), inArray(notificationChannel.name, names)));
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  const issues = input.steps.flatMap((s, i) =>
    s.channels
      .map((n, j) => ({ n, j }))
      .filter(({ n }) => !byName.has(n))
      .map(({ n, j }) => ({ path: `steps.${i}.channels.${j}`, message: `no notification channel named "${n}"` })),
  );
  if (issues.length > 0) throw new ValidationError(`${issues[0]!.path} ${issues[0]!.message}`, issues);
  return input.steps.map((s) => ({ afterMinutes: s.afterMinutes, channelIds: [...new Set(s.channels.map((n) => byName.get(n)!))] }));
}

async function view(db: Conn, rows: Row[]): Promise<EscalationPolicy[]> {
  if (rows.length === 0) return [];
  const ws = rows[0]!.workspaceId;
  const [channels, monitors] = await Promise.all([
    db
      .select({ id: notificationChannel.id, name: notificationChannel.name })
      .from(notificationChannel)
      .where(eq(notificationChannel.workspaceId, ws)),
    db
      .select({ id: monitor.id, policy: monitor.escalationPolicyId })
      .from(monitor)
      .where(
        and(
          inArray(
            monitor.escalationPolicyId,
            rows.map((r) => r.id),
          ),
          isNull(monitor.deletedAt),
        ),
      ),
  ]);
  const names = new Map(channels.map((c) => [c.id, c.name]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    steps: r.steps.map((s) => ({
      afterMinutes: s.afterMinutes,
      channels: s.channelIds.map((id) => names.get(id)).filter((n): n is string => !!n),
    })),
    repeatLastEveryMinutes: r.repeatLastEveryMinutes,
    monitors: monitors.filter((m) => m.policy === r.id).map((m) => m.id),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

async function row(db: Conn, workspaceId: number, id: number): Promise<Row> {
  const [r] = await db
    .select()
    .from(escalationPolicy)
    .where(and(eq(escalationPolicy.id, id), eq(escalationPolicy.workspaceId, workspaceId)));
  if (!r) throw new NotFoundError("escalation policy", id);
  return r;
}

async function assertNameFree(db: Conn, workspaceId: number, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: escalationPolicy.id })
    .from(escalationPolicy)
    .where(and(eq(escalationPolicy.workspaceId, workspaceId), eq(escalationPolicy.name, name)));
  if (clash && clash.id !== exceptId) throw new ConflictError(`an escalation policy named "${name}" already exists`);
}

export async function listEscalationPolicies(db: Db, workspaceId: number): Promise<EscalationPolicy[]> {
  return view(
    db,
    await db.select().from(escalationPolicy).where(eq(escalationPolicy.workspaceId, workspaceId)).orderBy(escalationPolicy.name),
  );
}

export async function getEscalationPolicy(db: Db, workspaceId: number, id: number): Promise<EscalationPolicy> {
  return (await view(db, [await row(db, workspaceId, id)]))[0]!;
}

export async function createEscalationPolicy(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<EscalationPolicy> {
  const input = parseInput(EscalationPolicyInput, raw, "escalation policy");
  const created = await audited(db, workspaceId, actor, async (tx, audit) => {
    await assertNameFree(tx, workspaceId, input.name);
    const steps = await channelIds(tx, workspaceId, input);
    const [r] = await tx
      .insert(escalationPolicy)
      .values({ workspaceId, name: input.name, steps, repeatLastEveryMinutes: input.repeatLastEveryMinutes })
      .returning();
    await audit({ action: "escalation-policy.create", targetType: "escalation-policy", targetId: r!.id });
    return r!;
  });
  return (await view(db, [created]))[0]!;
}

/** Replaces the policy whole; monitors keep it. */
export async function updateEscalationPolicy(
  db: Db,
  workspaceId: number,
  id: number,
  raw: unknown,
  actor: Actor,
): Promise<EscalationPolicy> {
  const input = parseInput(EscalationPolicyInput, raw, "escalation policy");
  const updated = await audited(db, workspaceId, actor, async (tx, audit) => {
    await row(tx, workspaceId, id);
    await assertNameFree(tx, workspaceId, input.name, id);
    const steps = await channelIds(tx, workspaceId, input);
    const [r] = await tx
      .update(escalationPolicy)
      .set({ name: input.name, steps, repeatLastEveryMinutes: input.repeatLastEveryMinutes, updatedAt: Date.now() })
      .where(eq(escalationPolicy.id, id))
      .returning();
    await audit({ action: "escalation-policy.update", targetType: "escalation-policy", targetId: id });
    return r!;
  });
  return (await view(db, [updated]))[0]!;
}

/** Deletes the policy; its monitors keep alerting their own channels. */
export async function deleteEscalationPolicy(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  await audited(db, workspaceId, actor, async (tx, audit) => {
    await row(tx, workspaceId, id);
    await tx.update(monitor).set({ escalationPolicyId: null }).where(eq(monitor.escalationPolicyId, id));
    await tx.delete(escalationPolicy).where(eq(escalationPolicy.id, id));
    await audit({ action: "escalation-policy.delete", targetType: "escalation-policy", targetId: id });
  });
}
