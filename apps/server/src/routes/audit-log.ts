import { AuditLogQuery } from "@vigil/api-contract";
import { limitsOf, listAuditLog } from "@vigil/core";
import { assertWithinLimits } from "@vigil/limits";
import { Hono } from "hono";
import type { Env } from "../context";
import { withQuery } from "../openapi";

export const auditLogRoutes = new Hono<Env>();

const getAuditLogQuery = withQuery({
  method: "get",
  path: "/v1/audit-log",
  summary: "Who changed what, newest first",
  tag: "workspace",
  auth: "apiKey",
  query: AuditLogQuery,
});
auditLogRoutes.get("/", getAuditLogQuery, async (c) => {
  // The plan's `audit-log` limit, as the dashboard's page applies it: off means a 403 naming the limit.
  assertWithinLimits(limitsOf(c.var.workspace).limits, [{ kind: "feature", key: "audit-log" }]);
  return c.json({ entries: await listAuditLog(c.var.deps.db, c.var.workspace.id, c.req.valid("query")) });
});
