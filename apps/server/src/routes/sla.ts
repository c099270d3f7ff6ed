import { monitorSlaReport, pageSlaReport, reportRange, type SlaReport, slaCsv } from "@vigil/core";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Env } from "../context";
import { withQuery } from "../openapi";
import { idParam } from "./params";

/** Audience: any valid API key of the workspace; another workspace's monitor or page answers 404. */
export const slaRoutes = new Hono<Env>();

const Query = z.object({
  month: z.string().optional().describe("a calendar month, YYYY-MM (UTC); or from/to"),
  from: z.string().optional().describe("range start, YYYY-MM-DD (UTC) or ISO 8601"),
  to: z.string().optional().describe("range end (exclusive), default now; at most 13 months after from"),
  target: z.coerce
    .number({ error: "must be a number" })
    .gt(0, "must be above 0")
    .lt(100, "must be below 100")
    .default(99.9)
    .describe("the objective in percent, default 99.9"),
  format: z.enum(["json", "csv"], { error: "must be json or csv" }).default("json"),
});

const answer = (c: Context<Env>, report: SlaReport, format: "json" | "csv", name: string) =>
  format === "csv"
    ? c.body(slaCsv(report), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}.csv"`,
      })
    : c.json(report);

slaRoutes.get(
  "/monitors/:id",
  withQuery({
    method: "get",
    path: "/v1/sla/monitors/:id",
    summary: "A monitor's uptime and error budget over a month or range",
    tag: "sla",
    auth: "apiKey",
    query: Query,
  }),
  async (c) => {
    const q = c.req.valid("query");
    const id = idParam(c);
    const report = await monitorSlaReport(c.var.deps.db, c.var.workspace.id, id, reportRange(q), Number((q.target / 100).toFixed(10)));
    return answer(c, report, q.format, `sla-monitor-${id}`);
  },
);

slaRoutes.get(
  "/status-pages/:id",
  withQuery({
    method: "get",
    path: "/v1/sla/status-pages/:id",
    summary: "A status page's uptime and error budget over a month or range",
    tag: "sla",
    auth: "apiKey",
    query: Query,
  }),
  async (c) => {
    const q = c.req.valid("query");
    const id = idParam(c);
    const report = await pageSlaReport(c.var.deps.db, c.var.workspace.id, id, reportRange(q), Number((q.target / 100).toFixed(10)));
    return answer(c, report, q.format, `sla-page-${id}`);
  },
);
