import { type CheckDefinition, CheckResult } from "@vigil/api-contract";
import { locationsServing } from "@vigil/core";
import { ulid } from "ulid";
import type { ServerDeps } from "./context";

export type RunOutcome =
  | { ok: true; location: { id: number; name: string; region: string }; result: CheckResult }
  | { ok: false; code: "no_probe" | "probe_timeout"; message: string };

/** Slack on top of the check's own timeout for the probe to hear, run and answer. */
const ANSWER_SLACK_MS = 10_000;

/**
 * Runs a check now on the most recently seen probe serving one of `regions` and waits for its
 * answer. On-demand runs make one attempt: the user wants to see what happens now.
 */
export async function runOnProbe(
  deps: ServerDeps,
  workspaceId: number,
  regions: readonly string[],
  monitorId: number | null,
  check: CheckDefinition,
): Promise<RunOutcome> {
  const [location] = await locationsServing(deps.db, workspaceId, regions);
  if (!location)
    return { ok: false, code: "no_probe", message: `no private location serves ${regions.join(", ")}; create one and deploy its probe` };
  const runId = ulid();
  const once = { ...check, retry: 0 };
  const waitMs = once.timeoutMs + ANSWER_SLACK_MS;
  const answer = deps.bus.waitRunResult(runId, waitMs);
  await deps.bus.requestRun(location.id, { runId, monitorId, check: once }, Math.ceil(waitMs / 1000));
  const raw = await answer;
  const parsed = CheckResult.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, code: "probe_timeout", message: `probe "${location.name}" did not answer within ${Math.round(waitMs / 1000)} s` };
  }
  return { ok: true, location: { id: location.id, name: location.name, region: location.region }, result: parsed.data };
}
