import {
  IngestBatch,
  IngestOutput,
  PROBE_INSTANCE_HEADER,
  ProbeInstanceId,
  ProbeMonitorList,
  type ProbePool,
  ProbeWaitOutput,
  ProbeWaitQuery,
  RunResultInput,
} from "@vigil/api-contract";
import { monitorsEtag, monitorsForLocation, recordBatch, reportProbeLoad, touchLocation } from "@vigil/core";
import { Hono } from "hono";
import { unknownLocationKey } from "../auth/bearer";
import type { Env } from "../context";
import { errorBody } from "../errors";
import { describeRoute, withBody, withQuery } from "../openapi";

export const probe = new Hono<Env>();
const tag = "probe";

const etagOf = async (c: { var: Env["Variables"] }) => {
  const loc = c.var.location;
  return `"${loc.id}-${(await monitorsEtag(c.var.deps.db, loc.workspaceId, loc.region)).replaceAll('"', "")}"`;
};

type ProbeContext = { var: Env["Variables"]; req: { header(name: string): string | undefined } };

/** A probe's instance id, from its header; undefined for a probe that names none (one before pools). */
function instanceOf(c: ProbeContext): string | undefined | Error {
  const raw = c.req.header(PROBE_INSTANCE_HEADER);
  if (raw === undefined) return undefined;
  const parsed = ProbeInstanceId.safeParse(raw);
  return parsed.success ? parsed.data : new Error(parsed.error.issues[0]?.message ?? "invalid");
}

/**
 * Counts the instance as live and answers the pool. Redis away: undefined, and the probe keeps the plans
 * it has (it runs the monitors it ran); a pool never blocks a probe's monitors.
 */
async function touchPool(c: ProbeContext, instance: string | undefined, leave = false): Promise<ProbePool | undefined> {
  if (instance === undefined) return undefined;
  const { deps, location } = c.var;
  try {
    return (await deps.bus.pool.touch(location.id, instance, poolLiveMs(deps.probeWaitMs), leave)) ?? undefined;
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message, locationId: location.id }, "probe pool not reachable; members keep their plans");
    return undefined;
  }
}

/** A probe re-polls at least every long-poll: unseen for two of them (and a second) it is gone. */
export const poolLiveMs = (probeWaitMs: number) => 2 * probeWaitMs + 1000;

const badInstance = (err: Error) =>
  errorBody("invalid_input", `${PROBE_INSTANCE_HEADER} ${err.message}`, {
    issues: [{ path: PROBE_INSTANCE_HEADER, message: err.message }],
  });

describeRoute({
  method: "get",
  path: "/v1/probe/monitors",
  summary: "The monitors this location runs (ETag, If-None-Match)",
  tag,
  auth: "serviceKey",
  response: ProbeMonitorList,
});
probe.get("/monitors", async (c) => {
  const { deps, location } = c.var;
  const instance = instanceOf(c);
  if (instance instanceof Error) return c.json(badInstance(instance), 400);
  await touchLocation(deps.db, location.id);
  const pool = await touchPool(c, instance);
  const etag = await etagOf(c);
  if (c.req.header("if-none-match") === etag) return c.body(null, 304, { etag });
  const monitors = await monitorsForLocation(deps.db, location);
  c.header("etag", etag);
  return c.json({ location: { id: location.id, name: location.name, region: location.region }, monitors, ...(pool && { pool }) });
});

const getProbeWaitQuery = withQuery({
  method: "get",
  path: "/v1/probe/wait",
  summary: "Long-poll: returns when monitors change or a run is requested",
  tag,
  auth: "serviceKey",
  query: ProbeWaitQuery,
  response: ProbeWaitOutput,
});
probe.get("/wait", getProbeWaitQuery, async (c) => {
  const { deps, location } = c.var;
  const q = c.req.valid("query");
  const instance = instanceOf(c);
  if (instance instanceof Error) return c.json(badInstance(instance), 400);
  await touchLocation(deps.db, location.id);
  if (q.overloaded !== undefined)
    await reportProbeLoad(deps.db, location.id, { skipped: q.skipped ?? 0, overloaded: q.overloaded === "1" });
  // Seen here too: a probe idle in long-polls stays live, and its poll is when the dead are dropped.
  let pool = await touchPool(c, instance);
  // The plans travel in the poll's answer, not through a refetch of the list: at 50,000 monitors a
  // refetch by every member could outlast the lead a plan gives them.
  const answer = async () => {
    if (instance !== undefined) pool = (await deps.bus.pool.read(location.id).catch(() => null)) ?? pool;
    const etag = await etagOf(c);
    // Taken last: once out of Redis a run exists only in this answer, so nothing after may fail.
    const runs = await deps.bus.takeRuns(location.id);
    return { etag, changed: etag !== q.etag, runs, ...(pool && { pool }) };
  };
  const news = (o: Awaited<ReturnType<typeof answer>>) =>
    o.changed || o.runs.length > 0 || (o.pool !== undefined && o.pool.version !== q.pool);
  let out = await answer();
  if (!news(out)) {
    // Looked at again once subscribed: a run requested in between is answered now, not after the poll.
    const woke = await deps.bus.waitForWake(
      location.id,
      location.workspaceId,
      Math.min(q.timeout, deps.probeWaitMs),
      c.req.raw.signal,
      async () => {
        out = await answer();
        return news(out);
      },
    );
    if (woke === "wake" && !news(out)) out = await answer();
    // The probe hung up mid-poll: killed, or stopping. Its share moves to the others now, not after the live bound.
    if (c.req.raw.signal.aborted) await touchPool(c, instance, true);
  }
  return c.json(out);
});

const postProbeResultsBody = withBody(
  {
    method: "post",
    path: "/v1/probe/results",
    summary: "Ingest a batch of results (idempotent on result ids)",
    tag,
    auth: "serviceKey",
    body: IngestBatch,
    response: IngestOutput,
  },
  "results",
);
probe.post("/results", postProbeResultsBody, async (c) => {
  const { deps, location } = c.var;
  const outcome = await recordBatch(deps.db, location, c.req.valid("json"));
  if (outcome.locationGone) {
    if (location.keyHash) deps.locationKeys.forget(location.keyHash);
    return c.json(unknownLocationKey(), 401);
  }
  deps.metrics.ingestRows.inc({ outcome: "accepted" }, outcome.accepted);
  deps.metrics.ingestRows.inc({ outcome: "duplicate" }, outcome.duplicates);
  deps.metrics.ingestRows.inc({ outcome: "ignored" }, outcome.ignored);
  deps.metrics.ingestRows.inc({ outcome: "refused" }, outcome.refused);
  if (outcome.refused > 0)
    deps.logger.warn({ locationId: location.id, refused: outcome.refused }, "results from the future refused; is the probe's clock right?");
  let queued = true;
  try {
    await deps.evaluate.add(outcome.toEvaluate);
  } catch (err) {
    // Stored and pending: the workflows' sweep evaluates them once Redis is back.
    queued = false;
    deps.metrics.errors.inc({ kind: "queue" });
    deps.logger.warn(
      { err: (err as Error).message, locationId: location.id, pending: outcome.toEvaluate.length },
      "evaluation not queued; results kept pending",
    );
  }
  return c.json({ accepted: outcome.accepted, duplicates: outcome.duplicates, ignored: outcome.ignored, refused: outcome.refused, queued });
});

const postProbeRunsRunIdBody = withBody(
  {
    method: "post",
    path: "/v1/probe/runs/:runId",
    summary: "Answer an on-demand run",
    tag,
    auth: "serviceKey",
    body: RunResultInput,
    status: 204,
  },
  "result",
);
probe.post("/runs/:runId", postProbeRunsRunIdBody, async (c) => {
  const runId = c.req.param("runId");
  const notFound = () => c.json(errorBody("not_found", `no run ${runId} waits for this location's answer`), 404);
  if (!/^[0-9A-Z]{26}$/.test(runId)) return notFound();
  const stored = await c.var.deps.bus.publishRunResult(runId, c.var.location.id, c.req.valid("json"));
  return stored ? c.body(null, 204) : notFound();
});
