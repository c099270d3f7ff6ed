// Pings by name: `/ping/<workspace ping key>/<entry key>`, for scripts that name their jobs instead of
// holding one URL per job. The key is the workspace's secret (stored encrypted, looked up by its hash).
import { randomBytes } from "node:crypto";
import { isValidEntryKey } from "@vigil/api-contract";
import { type Db, heartbeat, monitor, workspace } from "@vigil/db-schema";
import { and, eq, isNull } from "drizzle-orm";
import { updateWorkspaceAudited } from "../access/workspace";
import type { Actor } from "../audit/log";
import { createMonitor } from "../monitors";
import { sha256 } from "../secrets";
import { ensureHeartbeatRow } from "./pings";

/** 22 base64url characters: never mistaken for a heartbeat's 32-character token in the same path position. */
export const PING_KEY_RE = /^[A-Za-z0-9_-]{22}$/;
/** What a heartbeat made by a ping carries until someone edits it (Healthchecks.io's defaults). */
export const AUTO_CREATED_REQUEST = { period: "1d", grace: "1h" } as const;

const newPingKey = () => randomBytes(16).toString("base64url");

export interface PingKeySettings {
  /** Null until someone asks for one. */
  pingKey: string | null;
  autoCreate: boolean;
}

export async function pingKeySettings(db: Db, workspaceId: number): Promise<PingKeySettings> {
  const [row] = await db
    .select({ pingKey: workspace.pingKey, autoCreate: workspace.pingAutoCreate })
    .from(workspace)
    .where(eq(workspace.id, workspaceId));
  return { pingKey: row?.pingKey ?? null, autoCreate: row?.autoCreate ?? false };
}

/** A new ping key (the first, or a replacement: every URL with the old key answers 404 from now on). */
export async function rotatePingKey(db: Db, workspaceId: number, actor: Actor): Promise<string> {
  const key = newPingKey();
  const had = (await pingKeySettings(db, workspaceId)).pingKey !== null;
  await updateWorkspaceAudited(
    db,
    workspaceId,
    { pingKey: key, pingKeyHash: sha256(key) },
    actor,
    had ? "ping-key-rotated" : "ping-key-created",
  );
  return key;
}

export async function setPingAutoCreate(db: Db, workspaceId: number, on: boolean, actor: Actor): Promise<void> {
  await updateWorkspaceAudited(db, workspaceId, { pingAutoCreate: on }, actor, on ? "ping-auto-create-on" : "ping-auto-create-off");
}

/**
 * The heartbeat a ping by name is for: the workspace holding the key, its heartbeat with that entry key.
 * With `create` and the workspace's consent, a missing one is made (within the workspace's limits).
 * Null when the key, the name or the consent is missing: the caller answers 404 alike for each.
 */
export async function heartbeatBySlug(db: Db, pingKey: string, slug: string, create: boolean): Promise<number | null> {
  if (!PING_KEY_RE.test(pingKey) || !isValidEntryKey(slug)) return null;
  const [row] = await db
    .select({
      workspaceId: workspace.id,
      autoCreate: workspace.pingAutoCreate,
      id: monitor.id,
      kind: monitor.kind,
      hasRow: heartbeat.monitorId,
    })
    .from(workspace)
    .leftJoin(monitor, and(eq(monitor.workspaceId, workspace.id), eq(monitor.key, slug), isNull(monitor.deletedAt)))
    .leftJoin(heartbeat, eq(heartbeat.monitorId, monitor.id))
    .where(eq(workspace.pingKeyHash, sha256(pingKey)));
  if (!row) return null;
  const found = row.id === null ? null : { id: row.id, kind: row.kind, hasRow: row.hasRow };
  const ws = { id: row.workspaceId, autoCreate: row.autoCreate };
  let id: number;
  if (found) {
    if (found.kind !== "heartbeat") return null;
    if (found.hasRow !== null) return found.id;
    id = found.id;
  } else {
    if (!create || !ws.autoCreate) return null;
    const made = await createMonitor(
      db,
      ws.id,
      { kind: "heartbeat", key: slug, name: slug, description: "Made by its first ping by name.", request: AUTO_CREATED_REQUEST },
      "ping key",
    );
    id = made.id;
  }
  await ensureHeartbeatRow(db, id);
  return id;
}
