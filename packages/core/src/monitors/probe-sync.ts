import { type Frequency, frequencyMs, kindOf, type ProbeMonitor, toCheckDefinition } from "@vigil/api-contract";
import { type Db, monitor } from "@vigil/db-schema";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { toInput, toMonitor } from "./mapping";

export type { ProbeMonitor };

/** Monitor rows per read: sqld refuses an answer over 10 MB (RESPONSE_TOO_LARGE), about 10,000 monitors' rows. */
const MONITOR_PAGE = 2000;

/** The active monitors a location runs: those of its workspace that list its region. */
export async function monitorsForLocation(db: Db, location: { workspaceId: number; region: string }): Promise<ProbeMonitor[]> {
  const rows: (typeof monitor.$inferSelect)[] = [];
  // In pages by id. A monitor changed between two pages changes the ETag too, so the probe reads the list again.
  for (let after = 0; ; ) {
    const page = await db
      .select()
      .from(monitor)
      .where(and(eq(monitor.workspaceId, location.workspaceId), isNull(monitor.deletedAt), eq(monitor.active, true), gt(monitor.id, after)))
      .orderBy(monitor.id)
      .limit(MONITOR_PAGE);
    rows.push(...page);
    if (page.length < MONITOR_PAGE) break;
    after = page.at(-1)!.id;
  }
  return (
    rows
      // Heartbeats never reach a probe (they have no regions anyway): the server watches their pings.
      .filter((r) => !kindOf(r.kind).serverSide && r.regions.includes(location.region))
      .map((r) => ({
        id: r.id,
        name: r.name,
        frequency: r.frequency as Frequency,
        intervalMs: frequencyMs(r.frequency as Frequency),
        version: r.version,
        check: toCheckDefinition(toInput(toMonitor({ ...r, otelHeaders: null }, [], { reveal: true }))),
        openTelemetry: r.otelEndpoint ? { endpoint: r.otelEndpoint, headers: r.otelHeaders ?? {} } : null,
      }))
  );
}

/** Changes whenever any monitor of the workspace is created, changed or deleted. */
export async function monitorsEtag(db: Db, workspaceId: number, region: string): Promise<string> {
  const [r] = await db
    .select({
      n: count(),
      last: sql<number>`coalesce(max(${monitor.updatedAt}), 0)`,
      versions: sql<number>`coalesce(sum(${monitor.version}), 0)`,
    })
    .from(monitor)
    .where(eq(monitor.workspaceId, workspaceId));
  return `"${region}-${r?.n ?? 0}-${r?.last ?? 0}-${r?.versions ?? 0}"`;
}
