import type { MonitorInput } from "@vigil/api-contract";
import { type Conn, monitor, monitorChannel, notificationChannel, privateLocation } from "@vigil/db-schema";
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { NotFoundError } from "../errors";
import type { LocationCoverage, Row } from "./mapping";

/** The monitor columns `monitorTarget` reads for every kind but the databases (theirs is `connection`, a secret). */
export const targetColumns = {
  kind: monitor.kind,
  url: monitor.url,
  host: monitor.host,
  port: monitor.port,
  options: monitor.options,
};

export async function coverage(db: Conn, workspaceId: number): Promise<LocationCoverage> {
  return db
    .select({ region: privateLocation.region, online: privateLocation.online })
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)));
}

export async function activeCount(tx: Conn, workspaceId: number): Promise<number> {
  const [r] = await tx
    .select({ n: count() })
    .from(monitor)
    .where(and(eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  return r?.n ?? 0;
}

export async function channelNamesFor(tx: Conn, monitorIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return out;
  const rows = await tx
    .select({ monitorId: monitorChannel.monitorId, name: notificationChannel.name })
    .from(monitorChannel)
    .innerJoin(notificationChannel, eq(notificationChannel.id, monitorChannel.channelId))
    .where(inArray(monitorChannel.monitorId, monitorIds))
    .orderBy(notificationChannel.name);
  for (const r of rows) out.get(r.monitorId)?.push(r.name);
  return out;
}

export async function linkChannels(tx: Conn, monitorId: number, input: MonitorInput, byName: Map<string, number>, replace: boolean) {
  if (input.channels === undefined) return;
  if (replace) await tx.delete(monitorChannel).where(eq(monitorChannel.monitorId, monitorId));
  const ids = [...new Set(input.channels.map((n) => byName.get(n)!))];
  if (ids.length > 0)
    await tx
      .insert(monitorChannel)
      .values(ids.map((channelId) => ({ monitorId, channelId })))
      .onConflictDoNothing();
}

export async function getRow(tx: Conn, workspaceId: number, id: number): Promise<Row> {
  const [row] = await tx
    .select()
    .from(monitor)
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  if (!row) throw new NotFoundError("monitor", id);
  return row;
}
