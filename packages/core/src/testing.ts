// Test helpers of @vigil/core's own tests.
import type { Db } from "@vigil/db-schema";
import { createWorkspace, setLimits } from "./index";

/** A new workspace no plan limit gets in the way of; its id. */
export async function unlimitedWorkspace(db: Db): Promise<number> {
  const ws = await createWorkspace(db, { name: `ws-${Math.random()}` }, "operator");
  await setLimits(db, ws.id, "unlimited", "operator");
  return ws.id;
}
