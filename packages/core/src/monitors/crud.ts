import { kindOf, type Monitor } from "@vigil/api-contract";
import { type Db, monitor } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getWorkspace, limitsOf } from "../access";
import { alertLinksFor, storeAlertLinks } from "../alerts";
import { type Actor, audited, auditInsert } from "../audit";
import { NotFoundError, ValidationError } from "../errors";
import { type Row, toColumns, toInput, toMonitor } from "./mapping";
import { activeCount, channelNamesFor, coverage, getRow, linkChannels } from "./queries";
import { assertKeysFree, channelIdsByName, limitChecks, parseMonitor } from "./validation";

/** Creates every monitor or none: one invalid or over-limit entry creates nothing. */
export async function createMonitors(db: Db, workspaceId: number, raw: unknown[], actor: Actor): Promise<Monitor[]> {
  const inputs = raw.map((r, i) => ({
    input: parseMonitor(r, raw.length === 1 ? "" : `monitors.${i}`),
    path: raw.length === 1 ? "" : `monitors.${i}`,
  }));
  const created = await audited(db, workspaceId, actor, async (tx, audit) => {
    const ws = await getWorkspace(tx, workspaceId);
    const existing = await activeCount(tx, workspaceId);
    assertWithinLimits(
      limitsOf(ws).limits,
      limitChecks(
        inputs.map((x) => x.input),
        existing + inputs.length,
      ),
    );
    await assertKeysFree(tx, workspaceId, inputs);
    const byName = await channelIdsByName(tx, workspaceId, inputs);
    // 100 monitors per statement: the write lock is held for a few round trips, not one per monitor.
    const rows: Row[] = [];
    for (let i = 0; i < inputs.length; i += 100) {
      const chunk = inputs.slice(i, i + 100).map(({ input, path }) => ({ workspaceId, ...toColumns(input, undefined, path) }));
      rows.push(...(await tx.insert(monitor).values(chunk).returning()).sort((a, b) => a.id - b.id));
    }
    for (const [i, { input }] of inputs.entries()) await linkChannels(tx, rows[i]!.id, input, byName, false);
    await storeAlertLinks(
      tx,
      workspaceId,
      inputs.map(({ input, path }, i) => ({ monitorId: rows[i]!.id, input, path })),
    );
    await audit({
      action: "monitor.create",
      targetType: "monitor",
      targetId: rows.map((r) => r.id).join(","),
      metadata: { count: rows.length },
    });
    return rows;
  });
  const names = await channelNamesFor(
    db,
    created.map((r) => r.id),
  );
  const locations = await coverage(db, workspaceId);
  const links = await alertLinksFor(
    db,
    created.map((r) => r.id),
  );
  return created.map((r) => ({ ...toMonitor(r, names.get(r.id) ?? [], { locations }), ...links.get(r.id) }));
}

export async function createMonitor(db: Db, workspaceId: number, raw: unknown, actor: Actor): Promise<Monitor> {
  return (await createMonitors(db, workspaceId, [raw], actor))[0]!;
}

export async function getMonitor(db: Db, workspaceId: number, id: number): Promise<Monitor> {
  const row = await getRow(db, workspaceId, id);
  return {
    ...toMonitor(row, (await channelNamesFor(db, [id])).get(id) ?? [], { locations: await coverage(db, workspaceId) }),
    ...(await alertLinksFor(db, [id])).get(id),
  };
}

/** The workspace's monitors, or only those carrying every tag in `tags`. */
export async function listMonitors(db: Db, workspaceId: number, tags: readonly string[] = []): Promise<Monitor[]> {
  const rows = await db
    .select()
    .from(monitor)
    .where(
      and(
        eq(monitor.workspaceId, workspaceId),
        isNull(monitor.deletedAt),
        ...tags.map((t) => sql`exists (select 1 from json_each(${monitor.tags}) where value = ${t})`),
      ),
    )
    .orderBy(monitor.id);
  const names = await channelNamesFor(
    db,
    rows.map((r) => r.id),
  );
  const locations = await coverage(db, workspaceId);
  const links = await alertLinksFor(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...toMonitor(r, names.get(r.id) ?? [], { locations }), ...links.get(r.id) }));
}

/** PATCH: top-level fields replace, `request` merges one level deep; the result is validated whole. */
/**
 * A `request` patch over the stored one: a field set to null is removed, and naming a field of one group of
 * alternatives drops the others (so a heartbeat moves from `period` to `cron` in one PATCH).
 */
export function mergeRequest(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
  alternatives: readonly (readonly string[])[] = [],
): Record<string, unknown> {
  const merged = { ...current };
  for (const group of alternatives) {
    if (!group.some((k) => patch[k] !== undefined && patch[k] !== null)) continue;
    for (const other of alternatives) if (other !== group) for (const k of other) if (!(k in patch)) delete merged[k];
  }
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

export async function updateMonitor(db: Db, workspaceId: number, id: number, patch: unknown, actor: Actor): Promise<Monitor> {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw new ValidationError("monitor: body must be a JSON object", [{ path: "", message: "must be a JSON object" }]);
  }
  const updated = await audited(db, workspaceId, actor, async (tx, audit) => {
    const row = await getRow(tx, workspaceId, id);
    const current = toInput({
      ...toMonitor(row, (await channelNamesFor(tx, [id])).get(id) ?? []),
      ...(await alertLinksFor(tx, [id])).get(id),
    });
    const p = patch as Record<string, unknown>;
    const merged: Record<string, unknown> = { ...current, ...p };
    if (p.request && typeof p.request === "object" && !Array.isArray(p.request) && (p.kind === undefined || p.kind === current.kind)) {
      merged.request = mergeRequest(current.request, p.request as Record<string, unknown>, kindOf(current.kind).requestAlternatives);
    }
    const input = parseMonitor(merged, "");
    const ws = await getWorkspace(tx, workspaceId);
    assertWithinLimits(limitsOf(ws).limits, limitChecks([input], await activeCount(tx, workspaceId)));
    await assertKeysFree(tx, workspaceId, [{ input, path: "" }], id);
    const byName = await channelIdsByName(tx, workspaceId, [{ input, path: "" }]);
    const [next] = await tx
      .update(monitor)
      .set({ ...toColumns(input, row), version: sql`${monitor.version} + 1`, updatedAt: Date.now() })
      .where(eq(monitor.id, id))
      .returning();
    await linkChannels(tx, id, input, byName, true);
    await storeAlertLinks(tx, workspaceId, [{ monitorId: id, input, path: "" }]);
    await audit({
      action: "monitor.update",
      targetType: "monitor",
      targetId: id,
      metadata: { fields: Object.keys(p) },
    });
    return next!;
  });
  return {
    ...toMonitor(updated, (await channelNamesFor(db, [id])).get(id) ?? [], { locations: await coverage(db, workspaceId) }),
    ...(await alertLinksFor(db, [id])).get(id),
  };
}

export async function deleteMonitor(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  const res = await db
    .update(monitor)
    .set({ deletedAt: Date.now(), updatedAt: Date.now(), version: sql`${monitor.version} + 1` })
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)))
    .returning({ id: monitor.id });
  if (res.length === 0) throw new NotFoundError("monitor", id);
  await auditInsert(db, { workspaceId, actor, action: "monitor.delete", targetType: "monitor", targetId: id });
}
