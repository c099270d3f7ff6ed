import { randomBytes } from "node:crypto";
import { type CheckDefinition, CheckResult } from "@vigil/api-contract";
import { type Db, monitor } from "@vigil/db-schema";
import { and, eq, isNull } from "drizzle-orm";
import { locationsServing } from "../access";

/** The part of the probe bus (packages/queue) an on-demand run needs. */
export interface RunBus {
  requestRun(locationId: number, run: { runId: string; [field: string]: unknown }, ttlSeconds?: number): Promise<void>;
  waitRunResult(runId: string, ms: number): Promise<unknown | null>;
}

export type RunOutcome =
  | { ok: true; location: { id: number; name: string; region: string }; result: CheckResult }
  | { ok: false; code: "no_probe" | "probe_timeout"; message: string };

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** A run id in the shape the probe's answer route accepts (26 Crockford base32 characters). */
const runIdOf = () => Array.from(randomBytes(26), (b) => CROCKFORD[b % 32]).join("");

/** Slack on top of the check's own timeout for the probe to hear, run and answer. */
const ANSWER_SLACK_MS = 10_000;

/**
 * Runs a check now on the most recently seen probe serving one of `regions` and waits for its
 * answer. On-demand runs make one attempt: the user wants to see what happens now.
 * The server (trigger, test) and the dashboard (Test now) both go through here.
 */
export async function runOnProbe(
  db: Db,
  bus: RunBus,
  workspaceId: number,
  regions: readonly string[],
  monitorId: number | null,
  check: CheckDefinition,
): Promise<RunOutcome> {
  const [location] = await locationsServing(db, workspaceId, regions);
  if (!location)
    return { ok: false, code: "no_probe", message: `no private location serves ${regions.join(", ")}; create one and deploy its probe` };
  const runId = runIdOf();
  const once = { ...check, retry: 0 };
  const waitMs = once.timeoutMs + ANSWER_SLACK_MS;
  const answer = bus.waitRunResult(runId, waitMs);
  await bus.requestRun(location.id, { runId, monitorId, check: once }, Math.ceil(waitMs / 1000));
  const raw = await answer;
  const parsed = CheckResult.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, code: "probe_timeout", message: `probe "${location.name}" did not answer within ${Math.round(waitMs / 1000)} s` };
  }
  return { ok: true, location: { id: location.id, name: location.name, region: location.region }, result: parsed.data };
}

/**
 * The stored header values of a monitor, secrets included: "Test now" on an edited monitor runs
 * with the secrets the form only shows as set. Server side only; null when not this workspace's.
 */
export async function storedHeaders(
  db: Db,
  workspaceId: number,
  id: number,
): Promise<{ headers: Record<string, string>; otelHeaders: Record<string, string> } | null> {
  const [row] = await db
    .select({ headers: monitor.headers, otelHeaders: monitor.otelHeaders })
    .from(monitor)
    .where(and(eq(monitor.id, id), eq(monitor.workspaceId, workspaceId), isNull(monitor.deletedAt)));
  return row ? { headers: row.headers ?? {}, otelHeaders: row.otelHeaders ?? {} } : null;
}
