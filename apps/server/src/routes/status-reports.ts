import { StatusReportInput, StatusReportPatch, StatusReportUpdateInput } from "@vigil/api-contract";
import {
  addStatusReportUpdate,
  createStatusReport,
  deleteStatusReport,
  getStatusReport,
  listStatusReports,
  updateStatusReport,
} from "@vigil/core";
import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../context";
import { describeRoute, withBody, withQuery } from "../openapi";
import { idParam } from "./params";

export const statusReports = new Hono<Env>();
const tag = "status reports";
const base = "/v1/status-reports";

const Update = z.object({ id: z.number(), reportId: z.number(), status: z.string(), message: z.string(), date: z.number() });
const Report = z.object({
  id: z.number(),
  pageId: z.number(),
  title: z.string(),
  status: z.string(),
  resolvedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  updates: z.array(Update).describe("newest first"),
  components: z.array(z.object({ componentId: z.number(), impact: z.string() })),
});

const ListQuery = z.object({
  pageId: z.coerce.number().int().positive().optional(),
  open: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
const getStatusReportsQuery = withQuery({
  method: "get",
  path: base,
  summary: "List status reports (incidents), newest first; open=true for unresolved ones",
  tag,
  auth: "apiKey",
  query: ListQuery,
  response: z.object({ statusReports: z.array(Report) }),
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
    response: Report,
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
  response: Report,
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
    response: Report,
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
    response: Report,
    status: 201,
  },
  "update",
);
statusReports.post("/:id/updates", postStatusReportsUpdatesBody, async (c) =>
  c.json(await addStatusReportUpdate(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor), 201),
);
