import { entryKeys } from "@vigil/api-contract";
import { type Db, monitor } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getWorkspace, limitsOf } from "../access";
import { storeAlertLinks } from "../alerts";
import { type Actor, audited } from "../audit";
import { ValidationError } from "../errors";
import { type Row, toColumns } from "./mapping";
import { channelNamesFor, linkChannels } from "./queries";
import { channelIdsByName, limitChecks, parseMonitor } from "./validation";

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );

export interface ApplyPlan {
  create: string[];
  update: string[];
  delete: string[];
  unchanged: string[];
  applied: boolean;
}

/** Makes the workspace's keyed monitors match `raw` (matched by entry key), in one transaction. */
export async function applyMonitors(
  db: Db,
  workspaceId: number,
  raw: unknown[],
  opts: { prune?: boolean; dryRun?: boolean; keep?: readonly string[] },
  actor: Actor,
): Promise<ApplyPlan> {
  const inputs = raw.map((r, i) => ({ input: parseMonitor(r, `monitors.${i}`), path: `monitors.${i}` }));
  const missingKey = inputs.find((x) => !x.input.key);
  if (missingKey)
    throw new ValidationError(`${missingKey.path}.key is required to apply`, [
      { path: `${missingKey.path}.key`, message: "is required to apply" },
    ]);
  return audited(db, workspaceId, actor, async (tx, audit) => {
    const rows = await tx
      .select()
      .from(monitor)
      .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
    const names = await channelNamesFor(
      tx,
      rows.map((r) => r.id),
    );
    const byKey = new Map(rows.filter((r) => r.key).map((r) => [r.key!, r]));
    // A monitor without a key answers to the key an export gave it (same rule, same order), so a file
    // exported and applied again updates it, and it keeps that key from then on.
    const sorted = [...rows].sort((a, b) => a.id - b.id);
    entryKeys(sorted).forEach((key, i) => {
      if (!sorted[i]!.key && !byKey.has(key)) byKey.set(key, sorted[i]!);
    });
    const plan: ApplyPlan = { create: [], update: [], delete: [], unchanged: [], applied: false };
    // The file's other pages (`keep`) are wanted too: a prune deletes only what the whole file leaves out.
    const wanted = new Set([...inputs.map((x) => x.input.key!), ...(opts.keep ?? [])]);
    for (const { input, path } of inputs) {
      const row = byKey.get(input.key!);
      if (!row) {
        toColumns(input, undefined, path); // a "***" with nothing stored is refused before anything is written
        plan.create.push(input.key!);
      } else {
        const cols = toColumns(input, row, path);
        const same =
          Object.entries(cols).every(([k, v]) => stable(v) === stable(row[k as keyof Row])) &&
          (input.channels === undefined || stable([...new Set(input.channels)].sort()) === stable(names.get(row.id) ?? []));
        const alertFields = input.remindEvery !== undefined || input.escalationPolicy !== undefined || input.dependsOn !== undefined;
        if (same && !alertFields) {
          plan.unchanged.push(input.key!);
        } else plan.update.push(input.key!);
      }
    }
    if (opts.prune) for (const [key, row] of byKey) if (row.key === key && !wanted.has(key)) plan.delete.push(key);

    const ws = await getWorkspace(tx, workspaceId);
    const total = rows.length + plan.create.length - plan.delete.length;
    assertWithinLimits(
      limitsOf(ws).limits,
      limitChecks(
        inputs.map((x) => x.input),
        total,
      ),
    );
    const byName = await channelIdsByName(tx, workspaceId, inputs);
    if (opts.dryRun) return plan;

    const now = Date.now();
    const stored: Parameters<typeof storeAlertLinks>[2] = [];
    for (const { input, path } of inputs) {
      const row = byKey.get(input.key!);
      if (!row) {
        const [created] = await tx
          .insert(monitor)
          .values({ workspaceId, ...toColumns(input) })
          .returning({ id: monitor.id });
        await linkChannels(tx, created!.id, input, byName, false);
        stored.push({ monitorId: created!.id, input, path });
      } else if (plan.update.includes(input.key!)) {
        await tx
          .update(monitor)
          .set({ ...toColumns(input, row), version: sql`${monitor.version} + 1`, updatedAt: now })
          .where(eq(monitor.id, row.id));
        await linkChannels(tx, row.id, input, byName, true);
      }
      if (row) stored.push({ monitorId: row.id, input, path });
    }
    // After every monitor exists, so entries may depend on monitors created in the same file.
    await storeAlertLinks(tx, workspaceId, stored);
    for (const key of plan.delete) {
      await tx
        .update(monitor)
        .set({ deletedAt: now, updatedAt: now, version: sql`${monitor.version} + 1` })
        .where(eq(monitor.id, byKey.get(key)!.id));
    }
    await audit({
      action: "monitor.apply",
      targetType: "monitor",
      metadata: { create: plan.create, update: plan.update, delete: plan.delete },
    });
    plan.applied = true;
    return plan;
  });
}
