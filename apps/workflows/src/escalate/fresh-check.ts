import { monitorCheck, type RunBus, recordFreshCheck, runOnProbe } from "@vigil/core";
import { type Db, monitor } from "@vigil/db-schema";
import { eq } from "drizzle-orm";

/**
 * A held alert's fresh check (core's `AskCheck`): runs the monitor once on a probe serving it and records the
 * answer, or that none came, for the hold's next look. One attempt, as any on-demand run.
 */
export async function runFreshCheck(db: Db, bus: RunBus, monitorId: number, askedAt: number): Promise<void> {
  const [m] = await db.select({ workspaceId: monitor.workspaceId }).from(monitor).where(eq(monitor.id, monitorId));
  if (!m) return;
  const { regions, check } = await monitorCheck(db, m.workspaceId, monitorId);
  const out = await runOnProbe(db, bus, m.workspaceId, regions, monitorId, check);
  await recordFreshCheck(db, monitorId, askedAt, out.ok ? out.result.status : null);
}
