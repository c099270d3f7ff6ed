import {
  StatusReport,
  StatusReportInput,
  StatusReportList,
  StatusReportListQuery,
  StatusReportPatch,
  StatusReportUpdateInput,
} from "@vigil/api-contract";
import {
  addStatusReportUpdate,
  createStatusReport,
  deleteStatusReport,
  getStatusReport,
  listStatusReports,
  updateStatusReport,
} from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute, withBody, withQuery } from "../openapi";
import { idParam } from "./params";

export const statusReports = new Hono<Env>();
const tag = "status reports";
const base = "/v1/status-reports";

const getStatusReportsQuery = withQuery({
  method: "get",
  path: base,
  summary: "List status reports (incidents), newest first; open=true for unresolved ones",
  tag,
  auth: "apiKey",
  query: StatusReportListQuery,
  response: StatusReportList,
});
statusReports.get("/", getStatusReportsQuery, async (c) =>
  c.json({ statusReports: await listStatusReports(c.var.deps.db, c.var.workspace.id, c.req.valid("query")) }),
);

const postStatusReportsBody = withBody(
  {
    method: "post",
    path: base,
    summary: "Open a status report with its first update and the affected components",
    tag,
    auth: "apiKey",
    body: StatusReportInput,
    response: StatusReport,
    status: 201,
  },
  "status report",
);
statusReports.post("/", postStatusReportsBody, async (c) =>
  c.json(await createStatusReport(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor), 201),
);

describeRoute({
  method: "get",
  path: `${base}/:id`,
  summary: "Read a status report with its updates",
  tag,
  auth: "apiKey",
  response: StatusReport,
});
statusReports.get("/:id", async (c) => c.json(await getStatusReport(c.var.deps.db, c.var.workspace.id, idParam(c))));

const patchStatusReportsBody = withBody(
  {
    method: "patch",
    path: `${base}/:id`,
    summary: "Change a report's title or affected components",
    tag,
    auth: "apiKey",
    body: StatusReportPatch,
    response: StatusReport,
  },
  "status report",
);
statusReports.patch("/:id", patchStatusReportsBody, async (c) =>
  c.json(await updateStatusReport(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);

describeRoute({ method: "delete", path: `${base}/:id`, summary: "Delete a status report", tag, auth: "apiKey", status: 204 });
statusReports.delete("/:id", async (c) => {
  await deleteStatusReport(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});

const postStatusReportsUpdatesBody = withBody(
  {
    method: "post",
    path: `${base}/:id/updates`,
    summary: "Post an update (investigating, identified, monitoring, resolved); subscribers are mailed",
    tag,
    auth: "apiKey",
    body: StatusReportUpdateInput,
    response: StatusReport,
    status: 201,
  },
  "update",
);
statusReports.post("/:id/updates", postStatusReportsUpdatesBody, async (c) =>
  c.json(await addStatusReportUpdate(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor), 201),
);
