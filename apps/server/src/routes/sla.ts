import { SlaQuery, SlaReport as SlaReportShape } from "@vigil/api-contract";
import { monitorSlaReport, pageSlaReport, reportRange, type SlaReport, slaCsv, slaTarget } from "@vigil/core";
import { type Context, Hono } from "hono";
import type { Env } from "../context";
import { withQuery } from "../openapi";
import { idParam } from "./params";

/** Audience: any valid API key of the workspace; another workspace's monitor or page answers 404. */
export const slaRoutes = new Hono<Env>();

const answer = (c: Context<Env>, report: SlaReport, format: "json" | "csv", name: string) =>
  format === "csv"
    ? c.body(slaCsv(report), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}.csv"`,
      })
    : c.json(report);

// A monitor's report, or a page's (its monitor-backed components together, its status reports as incidents).
for (const [what, noun, report, file] of [
  ["monitors", "A monitor", monitorSlaReport, "sla-monitor"],
  ["status-pages", "A status page", pageSlaReport, "sla-page"],
] as const) {
  slaRoutes.get(
    `/${what}/:id`,
    withQuery({
      method: "get",
      path: `/v1/sla/${what}/:id`,
      summary: `${noun}'s uptime and error budget over a month or range`,
      tag: "sla",
      auth: "apiKey",
      query: SlaQuery,
      // The JSON form; `format=csv` answers the same figures as CSV (docs/sla.md names its columns).
      response: SlaReportShape,
    }),
    async (c) => {
      const q = c.req.valid("query");
      const id = idParam(c);
      // One instant ends the range and the measured time alike.
      const now = Date.now();
      const out = await report(c.var.deps.db, c.var.workspace.id, id, reportRange(q, now), slaTarget(q.target), now);
      return answer(c, out, q.format, `${file}-${id}`);
    },
  );
}
