// Test helpers of @vigil/core's own tests, and of apps' tests that seed through core.
import { type Db, user } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { ulid } from "ulid";
import { afterAll, beforeAll } from "vitest";
import { createPrivateLocation, createWorkspace, setLimits } from "./index";

/** A new workspace no plan limit gets in the way of; its id. */
export async function unlimitedWorkspace(db: Db): Promise<number> {
  const ws = await createWorkspace(db, { name: `ws-${Math.random()}` }, "operator");
  await setLimits(db, ws.id, "unlimited", "operator");
  return ws.id;
}

/** A workspace named `name` with unlimited limits and one private location per region (named after it). */
export async function workspaceWithLocations(db: Db, name: string, regions: readonly string[]) {
  const ws = (await createWorkspace(db, { name }, "operator")).id;
  await setLimits(db, ws, "unlimited", "operator");
  const locations: { id: number; workspaceId: number; region: string }[] = [];
  for (const region of regions) {
    const { location } = await createPrivateLocation(db, ws, { name: region, region: region as "iad" }, "operator");
    locations.push({ id: location.id, workspaceId: ws, region });
  }
  return { ws, locations };
}

/** A test database started before the file's tests (handed to `started`) and closed after them. */
export function useTestDatabase(started: (t: TestDatabase) => void): void {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await startTestDatabase();
    started(t);
  });
  afterAll(async () => {
    await t?.close();
  });
}

let users = 0;
/** A user row (a new address unless `email` is given); `{ id, email }`. */
export async function insertUser(db: Db, email = `person${++users}@example.com`) {
  const id = `u-${++users}`;
  await db.insert(user).values({ id, email });
  return { id, email };
}

/** An http monitor as the API takes it, keyed `key`, aimed at a closed loopback port. */
export const httpMonitor = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  kind: "http",
  frequency: "1m",
  regions: ["iad"],
  request: { url: `http://127.0.0.1:9/${key}` },
  ...extra,
});

/** One check result of `monitorId` for the slot `cronTimestamp`, as a probe reports it; a failed one was refused. */
export const probeResult = <S extends string>(
  monitorId: number,
  cronTimestamp: number,
  status: S,
  measured: { latencyMs: number; attempts: number },
) => ({
  id: ulid(),
  monitorId,
  cronTimestamp,
  startedAt: cronTimestamp,
  status,
  ...measured,
  ...(status === "error" ? { errorMessage: "connection refused" } : {}),
});
