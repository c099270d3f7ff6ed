import type { CheckDefinition } from "@vigil/api-contract";
import { type RunOutcome, runOnProbe as run } from "@vigil/core";
import type { ServerDeps } from "./context";

export type { RunOutcome };

/** On-demand runs (trigger, test) on a probe: the rule lives in core, shared with the dashboard. */
export function runOnProbe(
  deps: ServerDeps,
  workspaceId: number,
  regions: readonly string[],
  monitorId: number | null,
  check: CheckDefinition,
): Promise<RunOutcome> {
  return run(deps.db, deps.bus, workspaceId, regions, monitorId, check);
}
