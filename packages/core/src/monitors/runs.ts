import { randomBytes } from "node:crypto";
import { type CheckDefinition, CheckResult, monitorTarget, originOf, toCheckDefinition } from "@vigil/api-contract";
import { type Db, monitor } from "@vigil/db-schema";
import { and, eq, isNull } from "drizzle-orm";
import { locationsServing } from "../access";
import { type Actor, auditInsert } from "../audit";
import { type Row, toColumns, toInput, toMonitor } from "./mapping";
import { getRow } from "./queries";
import { parseMonitor } from "./validation";
import { monitorCheck } from "./views";

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
 * The check an unsaved draft runs. "***" takes the secret stored for `previous` under the rule a save
 * follows (same origin only; a ValidationError names the header otherwise), so Test now can never send
 * a stored secret anywhere Save could not.
 */
function draftCheck(raw: unknown, previous: Row | undefined): { regions: string[]; check: CheckDefinition; target: string } {
  const input = parseMonitor(raw, "");
  const row = { ...(previous ?? ({} as Row)), ...toColumns(input, previous), otelHeaders: null } as Row;
  return { regions: input.regions, check: toCheckDefinition(toInput(toMonitor(row, [], { reveal: true }))), target: monitorTarget(row) };
}

/** Where a check goes, without path, query or credentials: an HTTP origin, or the kind's own words (host:port…). */
function destinationOf(target: string): string {
  return /^https?:/i.test(target) ? (originOf(target) ?? target) : target;
}

/** Runs a check on a probe and records the run in the audit log: who ran what where, and what came of it (not the URL's path or query). */
async function auditedRun(
  db: Db,
  bus: RunBus,
  workspaceId: number,
  run: {
    regions: readonly string[];
    check: CheckDefinition;
    target: string;
    monitorId: number | null;
    action: "monitor.test" | "monitor.run";
  },
  actor: Actor,
): Promise<RunOutcome> {
  const record = (outcome: string, statusCode?: number) =>
    auditInsert(db, {
      workspaceId,
      actor,
      action: run.action,
      targetType: "monitor",
      targetId: run.monitorId,
      metadata: { kind: run.check.kind, target: destinationOf(run.target), outcome, ...(statusCode !== undefined && { statusCode }) },
    });
  let out: RunOutcome;
  try {
    out = await runOnProbe(db, bus, workspaceId, run.regions, run.monitorId, run.check);
  } catch (err) {
    await record("probe bus unavailable");
    throw err;
  }
  // No probe serves the regions: nothing was sent anywhere, so there is no run to record.
  if (out.ok || out.code !== "no_probe") await record(out.ok ? out.result.status : out.code, out.ok ? out.result.statusCode : undefined);
  return out;
}

/**
 * Test now: runs an unsaved definition once. With `monitorId` (an edit), "***" keeps that monitor's
 * stored secrets only for the same origin; without one there is nothing to keep and "***" is refused.
 */
export async function testMonitorDraft(
  db: Db,
  bus: RunBus,
  workspaceId: number,
  raw: unknown,
  monitorId: number | null,
  actor: Actor,
): Promise<RunOutcome> {
  const previous = monitorId === null ? undefined : await getRow(db, workspaceId, monitorId);
  const { regions, check, target } = draftCheck(raw, previous);
  return auditedRun(db, bus, workspaceId, { regions, check, target, monitorId, action: "monitor.test" }, actor);
}

/** Runs a saved monitor now (trigger, "Check now"), recorded in the audit log. */
export async function runMonitorNow(db: Db, bus: RunBus, workspaceId: number, id: number, actor: Actor): Promise<RunOutcome> {
  const { regions, check, target } = await monitorCheck(db, workspaceId, id);
  return auditedRun(db, bus, workspaceId, { regions, check, target, monitorId: id, action: "monitor.run" }, actor);
}

/** The stored header values of a monitor, secrets included. Server side only; null when not this workspace's. */
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
