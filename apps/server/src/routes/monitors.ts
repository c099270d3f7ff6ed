import {
  ApplyInput,
  ApplyOutput,
  Monitor,
  MonitorBatchInput,
  MonitorBatchOutput,
  MonitorInput,
  MonitorList,
  MonitorListQuery,
  MonitorPatch,
  MonitorSummaryQuery,
  RunOutput,
} from "@vigil/api-contract";
import {
  applyMonitors,
  createMonitor,
  createMonitors,
  deleteMonitor,
  getMonitor,
  listMonitors,
  measure,
  measuredUptime,
  updateMonitor,
} from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { errorBody } from "../errors";
import { describeRoute, withBody, withQuery } from "../openapi";
import { runs } from "../runs";
import { idParam } from "./params";

export const monitors = new Hono<Env>();
const tag = "monitors";

const changed = async (c: { var: Env["Variables"] }) => {
  // Probes hear about it at once; if Redis is away they still see the new ETag on their next poll.
  await c.var.deps.bus.monitorsChanged(c.var.workspace.id).catch(() => {});
};

const getMonitorsQuery = withQuery({
  method: "get",
  path: "/v1/monitors",
  summary: "List monitors (only those carrying every `tag` given)",
  tag,
  auth: "apiKey",
  query: MonitorListQuery,
  response: MonitorList,
});
monitors.get("/", getMonitorsQuery, async (c) =>
  c.json({ monitors: await listMonitors(c.var.deps.db, c.var.workspace.id, c.req.valid("query").tag) }),
);

const postMonitorsBody = withBody(
  {
    method: "post",
    path: "/v1/monitors",
    summary: "Create a monitor",
    tag,
    auth: "apiKey",
    body: MonitorInput,
    response: Monitor,
    status: 201,
  },
  "monitor",
);
monitors.post("/", postMonitorsBody, async (c) => {
  const monitor = await createMonitor(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor);
  await changed(c);
  return c.json(monitor, 201);
});

const postMonitorsBatchBody = withBody(
  {
    method: "post",
    path: "/v1/monitors/batch",
    summary: "Create many monitors in one transaction",
    tag,
    auth: "apiKey",
    body: MonitorBatchInput,
    response: MonitorBatchOutput,
    status: 201,
  },
  "monitors",
);
monitors.post("/batch", postMonitorsBatchBody, async (c) => {
  const created = await createMonitors(c.var.deps.db, c.var.workspace.id, c.req.valid("json").monitors, c.var.actor);
  await changed(c);
  return c.json({ monitors: created }, 201);
});

const postMonitorsApplyBody = withBody(
  {
    method: "post",
    path: "/v1/monitors/apply",
    summary: "Make keyed monitors match a file (plan, dry run, prune)",
    tag,
    auth: "apiKey",
    body: ApplyInput,
    response: ApplyOutput,
  },
  "apply",
);
monitors.post("/apply", postMonitorsApplyBody, async (c) => {
  const body = c.req.valid("json");
  const plan = await applyMonitors(c.var.deps.db, c.var.workspace.id, body.monitors, body, c.var.actor);
  if (plan.applied) await changed(c);
  return c.json(plan);
});

const postMonitorsTestBody = withBody(
  {
    method: "post",
    path: "/v1/monitors/test",
    summary: "Run a monitor definition once on a probe, without saving it",
    tag,
    auth: "apiKey",
    body: MonitorInput,
    response: RunOutput,
  },
  "monitor",
);
monitors.post("/test", postMonitorsTestBody, async (c) => {
  // A draft has no stored monitor: a "***" header has no secret to keep and is refused.
  const out = await runs.test(c.var.deps, c.var.workspace.id, c.req.valid("json"), c.var.actor);
  if (!out.ok) return c.json(errorBody(out.code, out.message), out.code === "no_probe" ? 409 : 504);
  return c.json({ location: out.location, result: out.result });
});

describeRoute({ method: "get", path: "/v1/monitors/:id", summary: "Read a monitor", tag, auth: "apiKey", response: Monitor });
monitors.get("/:id", async (c) => c.json(await getMonitor(c.var.deps.db, c.var.workspace.id, idParam(c))));

const patchMonitorsBody = withBody(
  {
    method: "patch",
    path: "/v1/monitors/:id",
    summary: "Change a monitor",
    tag,
    auth: "apiKey",
    body: MonitorPatch,
    response: Monitor,
  },
  "monitor",
);
monitors.patch("/:id", patchMonitorsBody, async (c) => {
  const monitor = await updateMonitor(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor);
  await changed(c);
  return c.json(monitor);
});

describeRoute({ method: "delete", path: "/v1/monitors/:id", summary: "Delete a monitor", tag, auth: "apiKey", status: 204 });
monitors.delete("/:id", async (c) => {
  await deleteMonitor(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  await changed(c);
  return c.body(null, 204);
});

describeRoute({
  method: "post",
  path: "/v1/monitors/:id/trigger",
  summary: "Run a monitor now on a probe serving it",
  tag,
  auth: "apiKey",
  response: RunOutput,
});
monitors.post("/:id/trigger", async (c) => {
  const out = await runs.trigger(c.var.deps, c.var.workspace.id, idParam(c), c.var.actor);
  if (!out.ok) return c.json(errorBody(out.code, out.message), out.code === "no_probe" ? 409 : 504);
  return c.json({ location: out.location, result: out.result });
});

const getMonitorsSummaryQuery = withQuery({
  method: "get",
  path: "/v1/monitors/:id/summary",
  summary: "Uptime and latency percentiles per bucket",
  tag,
  auth: "apiKey",
  query: MonitorSummaryQuery,
});
monitors.get("/:id/summary", getMonitorsSummaryQuery, async (c) => {
  const m = await getMonitor(c.var.deps.db, c.var.workspace.id, idParam(c));
  const q = c.req.valid("query");
  const now = Date.now();
  const to = q.to ?? now;
  const from = q.from ?? to - 86_400_000;
  const [series, [measured]] = await Promise.all([
    c.var.deps.analytics.series({ monitorId: m.id, from, to, bucket: q.bucket, locationId: q.locationId }),
    measure(c.var.deps.db, [m.id], { from, to, nowMs: now, bucket: q.bucket }),
  ]);
  return c.json({
    monitorId: m.id,
    health: m.health,
    from,
    to,
    bucket: q.bucket,
    series,
    // The uptime figure (slot verdicts over measured time, as SLA and status page count it); `series` is latency.
    measured: measuredUptime(measured!),
  });
});
