import { type RunOutcome, runMonitorNow, testMonitorDraft } from "@vigil/core";
import type { ServerDeps } from "./context";

export type { RunOutcome };

/** On-demand runs (trigger, test) on a probe: the rules and the audit live in core, shared with the dashboard. */
export const runs = {
  test: (deps: ServerDeps, workspaceId: number, draft: unknown, actor: string): Promise<RunOutcome> =>
    testMonitorDraft(deps.db, deps.bus, workspaceId, draft, null, actor),
  trigger: (deps: ServerDeps, workspaceId: number, id: number, actor: string): Promise<RunOutcome> =>
    runMonitorNow(deps.db, deps.bus, workspaceId, id, actor),
};
