// A monitor's alert settings: reminder intervals (its own or per channel link), its escalation policy, the
// monitors it depends on. Stored beside the monitor by create, update and apply; cycles refused.
import type { MonitorInput } from "@vigil/api-contract";
import { type Conn, escalationPolicy, monitor, monitorChannel, monitorDependency, notificationChannel } from "@vigil/db-schema";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { ValidationError } from "../errors";

type Fields = Pick<MonitorInput, "remindEvery" | "escalationPolicy" | "dependsOn">;
export interface AlertLinks {
  remindEvery: number | Record<string, number> | null;
  escalationPolicy: string | null;
  dependsOn: (string | number)[];
}

const at = (path: string, ...rest: (string | number)[]) => [path, ...rest.map(String)].filter(Boolean).join(".");
const fail = (path: string, message: string): never => {
  throw new ValidationError(`${path} ${message}`, [{ path, message }]);
};

/** Stores the alert fields each entry sets (a field left out is kept); all checked before anything is written. */
export async function storeAlertLinks(
  tx: Conn,
  workspaceId: number,
  entries: { monitorId: number; input: Fields; path: string }[],
): Promise<void> {
  const touched = entries.filter(
    ({ input: i }) => i.remindEvery !== undefined || i.escalationPolicy !== undefined || i.dependsOn !== undefined,
  );
  if (touched.length === 0) return;
  const [policies, monitors, links, edges] = await Promise.all([
    tx
      .select({ id: escalationPolicy.id, name: escalationPolicy.name })
      .from(escalationPolicy)
      .where(eq(escalationPolicy.workspaceId, workspaceId)),
    tx
      .select({ id: monitor.id, key: monitor.key, name: monitor.name })
      .from(monitor)
      .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt))),
    tx
      .select({ monitorId: monitorChannel.monitorId, channelId: monitorChannel.channelId, name: notificationChannel.name })
      .from(monitorChannel)
      .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
      .where(
        inArray(
          monitorChannel.monitorId,
          touched.map((e) => e.monitorId),
        ),
      ),
    tx
      .select({ child: monitorDependency.monitorId, parent: monitorDependency.parentId })
      .from(monitorDependency)
      .innerJoin(monitor, eq(monitor.id, monitorDependency.monitorId))
      .where(eq(monitor.workspaceId, workspaceId)),
  ]);
  const policyIds = new Map(policies.map((p) => [p.name, p.id]));
  const byId = new Map(monitors.map((m) => [m.id, m]));
  const byKey = new Map(monitors.filter((m) => m.key).map((m) => [m.key!, m.id]));
  const graph = new Map<number, number[]>();
  for (const e of edges) graph.set(e.child, [...(graph.get(e.child) ?? []), e.parent]);

  const writes: { monitorId: number; input: Fields; policyId?: number | null; parents?: number[]; perLink?: Map<number, number> }[] = [];
  for (const { monitorId, input, path } of touched) {
    const w: (typeof writes)[number] = { monitorId, input };
    if (input.escalationPolicy !== undefined) {
      w.policyId = input.escalationPolicy === null ? null : (policyIds.get(input.escalationPolicy) ?? null);
      if (input.escalationPolicy !== null && w.policyId === null)
        fail(at(path, "escalationPolicy"), `names no escalation policy ("${input.escalationPolicy}")`);
    }
    if (input.remindEvery && typeof input.remindEvery === "object") {
      const mine = new Map(links.filter((l) => l.monitorId === monitorId).map((l) => [l.name, l.channelId]));
      w.perLink = new Map();
      for (const [name, ms] of Object.entries(input.remindEvery)) {
        const channelId = mine.get(name);
        if (channelId === undefined) fail(at(path, "remindEvery", name), `is not a channel of this monitor (list it in channels)`);
        w.perLink.set(channelId!, ms);
      }
    }
    if (input.dependsOn !== undefined) {
      w.parents = [];
      for (const [i, ref] of input.dependsOn.entries()) {
        const id = typeof ref === "number" ? (byId.has(ref) ? ref : undefined) : byKey.get(ref);
        if (id === undefined) fail(at(path, "dependsOn", i), `names no monitor of this workspace (${JSON.stringify(ref)})`);
        if (id === monitorId) fail(at(path, "dependsOn", i), "must not name the monitor itself (a dependency cycle)");
        w.parents.push(id!);
      }
      w.parents = [...new Set(w.parents)];
      graph.set(monitorId, w.parents);
    }
    writes.push(w);
  }
  // Any cycle through a changed monitor is refused, naming the path.
  const label = (id: number) => byId.get(id)?.key ?? byId.get(id)?.name ?? String(id);
  for (const { monitorId, path } of touched) {
    const stack: number[] = [];
    const visit = (id: number): number[] | null => {
      if (stack.includes(id)) return [...stack.slice(stack.indexOf(id)), id];
      stack.push(id);
      for (const p of graph.get(id) ?? []) {
        const cycle = visit(p);
        if (cycle) return cycle;
      }
      stack.pop();
      return null;
    };
    const cycle = visit(monitorId);
    if (cycle) fail(at(path, "dependsOn"), `would make a dependency cycle: ${cycle.map(label).join(" → ")}`);
  }

  for (const w of writes) {
    const set: Partial<typeof monitor.$inferInsert> = {};
    if (w.input.remindEvery !== undefined) set.remindEveryMs = typeof w.input.remindEvery === "number" ? w.input.remindEvery : null;
    if (w.policyId !== undefined) set.escalationPolicyId = w.policyId;
    if (Object.keys(set).length > 0) await tx.update(monitor).set(set).where(eq(monitor.id, w.monitorId));
    if (w.input.remindEvery !== undefined) {
      await tx.update(monitorChannel).set({ remindEveryMs: null }).where(eq(monitorChannel.monitorId, w.monitorId));
      for (const [channelId, ms] of w.perLink ?? [])
        await tx
          .update(monitorChannel)
          .set({ remindEveryMs: ms })
          .where(and(eq(monitorChannel.monitorId, w.monitorId), eq(monitorChannel.channelId, channelId)));
    }
    if (w.parents) {
      await tx.delete(monitorDependency).where(eq(monitorDependency.monitorId, w.monitorId));
      if (w.parents.length > 0)
        await tx.insert(monitorDependency).values(w.parents.map((parentId) => ({ monitorId: w.monitorId, parentId })));
    }
  }
}

/** The alert fields of each monitor, as the API shows them. */
export async function alertLinksFor(db: Conn, ids: number[]): Promise<Map<number, AlertLinks>> {
  const out = new Map<number, AlertLinks>(ids.map((id) => [id, { remindEvery: null, escalationPolicy: null, dependsOn: [] }]));
  if (ids.length === 0) return out;
  const parent = monitor;
  const [own, links, deps] = await Promise.all([
    db
      .select({ id: monitor.id, remind: monitor.remindEveryMs, policy: escalationPolicy.name })
      .from(monitor)
      .leftJoin(escalationPolicy, eq(escalationPolicy.id, monitor.escalationPolicyId))
      .where(inArray(monitor.id, ids)),
    db
      .select({ monitorId: monitorChannel.monitorId, name: notificationChannel.name, ms: monitorChannel.remindEveryMs })
      .from(monitorChannel)
      .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
      .where(inArray(monitorChannel.monitorId, ids)),
    db
      .select({ child: monitorDependency.monitorId, id: parent.id, key: parent.key })
      .from(monitorDependency)
      .innerJoin(parent, eq(parent.id, monitorDependency.parentId))
      .where(and(inArray(monitorDependency.monitorId, ids), isNull(parent.deletedAt)))
      .orderBy(parent.id),
  ]);
  for (const r of own) {
    const o = out.get(r.id)!;
    o.escalationPolicy = r.policy;
    o.remindEvery = r.remind;
  }
  for (const l of links) {
    if (l.ms === null) continue;
    const o = out.get(l.monitorId)!;
    o.remindEvery = { ...(typeof o.remindEvery === "object" && o.remindEvery ? o.remindEvery : {}), [l.name]: l.ms };
  }
  for (const d of deps) out.get(d.child)!.dependsOn.push(d.key ?? d.id);
  return out;
}
