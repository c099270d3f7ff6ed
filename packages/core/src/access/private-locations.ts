import { PrivateLocationInput } from "@vigil/api-contract";
import { type Db, privateLocation, workspace } from "@vigil/db-schema";
import { assertWithinLimits } from "@vigil/limits";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Actor, auditInsert } from "../audit";
import { NotFoundError, parseInput } from "../errors";
import { newSecret, sha256 } from "../secrets";
import { getWorkspace, limitsOf } from "./workspace";

export { PrivateLocationInput };

export type PrivateLocation = typeof privateLocation.$inferSelect;

/** Creates a location and returns its SERVICE_KEY once. Gated by the `private-locations` limit. */
export async function createPrivateLocation(db: Db, workspaceId: number, input: z.input<typeof PrivateLocationInput>, actor: Actor) {
  const data = parseInput(PrivateLocationInput, input, "private location");
  const ws = await getWorkspace(db, workspaceId);
  assertWithinLimits(limitsOf(ws).limits, [{ kind: "feature", key: "private-locations" }]);
  const { secret, hash, prefix } = newSecret("loc");
  const [row] = await db
    .insert(privateLocation)
    .values({ workspaceId, name: data.name, region: data.region, keyHash: hash, keyPrefix: prefix })
    .returning();
  await auditInsert(db, {
    workspaceId,
    actor,
    action: "private-location.create",
    targetType: "private-location",
    targetId: row!.id,
    metadata: { name: data.name, region: data.region },
  });
  const { keyHash: _omit, ...location } = row!;
  return { location, key: secret };
}

/** The location a probe's SERVICE_KEY belongs to, or null. */
export async function verifyLocationKey(db: Db, key: string) {
  if (!key.startsWith("vgl_loc_")) return null;
  const [row] = await db
    .select({ location: privateLocation, workspace })
    .from(privateLocation)
    .innerJoin(workspace, eq(workspace.id, privateLocation.workspaceId))
    .where(and(eq(privateLocation.keyHash, sha256(key)), isNull(privateLocation.deletedAt)));
  return row ?? null;
}

/** A location as a probe's key names it, with the key's hash for `recordBatch` to check again in its write. */
export interface KeyedLocation {
  id: number;
  workspaceId: number;
  name: string;
  region: string;
  keyHash: string;
}

/**
 * The locations of the keys one process has seen, for the results route only: `recordBatch` checks the key
 * again inside the batch's own write and stores nothing for a deleted location, so a batch costs one round
 * trip instead of two and a deleted location's probe is still refused on its very next batch (then forgotten).
 * A location's id, workspace and region never change; only valid keys are kept.
 */
export class LocationKeys {
  private readonly known = new Map<string, KeyedLocation>();
  constructor(private readonly max = 10_000) {}

  async find(db: Db, key: string): Promise<KeyedLocation | null> {
    if (!key.startsWith("vgl_loc_")) return null;
    const keyHash = sha256(key);
    const hit = this.known.get(keyHash);
    if (hit) return hit;
    const found = await verifyLocationKey(db, key);
    if (!found) return null;
    const { id, workspaceId, name, region } = found.location;
    if (this.known.size >= this.max) this.known.clear();
    const location = { id, workspaceId, name, region, keyHash };
    this.known.set(keyHash, location);
    return location;
  }

  forget(keyHash: string): void {
    this.known.delete(keyHash);
  }
}

export async function listPrivateLocations(db: Db, workspaceId: number) {
  const rows = await db
    .select()
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)))
    .orderBy(privateLocation.id);
  return rows.map(({ keyHash: _omit, ...rest }) => rest);
}

export async function deletePrivateLocation(db: Db, workspaceId: number, id: number, actor: Actor): Promise<void> {
  const res = await db
    .update(privateLocation)
    .set({ deletedAt: Date.now(), online: false })
    .where(and(eq(privateLocation.id, id), eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)))
    .returning({ id: privateLocation.id });
  if (res.length === 0) throw new NotFoundError("private location", id);
  await auditInsert(db, { workspaceId, actor, action: "private-location.delete", targetType: "private-location", targetId: id });
}

/** Live locations of a workspace whose region is one of `regions`, most recently seen first. */
export async function locationsServing(db: Db, workspaceId: number, regions: readonly string[]) {
  const rows = await db
    .select({ id: privateLocation.id, name: privateLocation.name, region: privateLocation.region, lastSeenAt: privateLocation.lastSeenAt })
    .from(privateLocation)
    .where(and(eq(privateLocation.workspaceId, workspaceId), isNull(privateLocation.deletedAt)));
  return rows.filter((r) => regions.includes(r.region)).sort((a, b) => (b.lastSeenAt ?? 0) - (a.lastSeenAt ?? 0));
}

/**
 * What a probe says of its own load at each poll: checks it could not run in time since its last report
 * (counted, never results: they do not vote nor count against uptime) and whether it keeps missing deadlines.
 */
export async function reportProbeLoad(db: Db, locationId: number, load: { skipped: number; overloaded: boolean }, nowMs = Date.now()) {
  await db
    .update(privateLocation)
    .set({
      skippedChecks: sql`${privateLocation.skippedChecks} + ${load.skipped}`,
      overloadedSince: load.overloaded ? sql`coalesce(${privateLocation.overloadedSince}, ${nowMs})` : null,
    })
    .where(eq(privateLocation.id, locationId));
}
