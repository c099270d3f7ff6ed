import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { MAX_TAG_LABELS, parseTagLabels, prometheusMetrics } from "@vigil/core";
import { Hono } from "hono";
import { accepts } from "hono/accepts";
import { z } from "zod";
import type { Env } from "../context";
import { withQuery } from "../openapi";

const gzipLevel1 = (body: Uint8Array) => promisify(gzip)(body, { level: 1 });

/** Audience: any valid API key of the workspace (Prometheus sends it as `authorization: Bearer`); its own monitors only. */
export const metricsRoutes = new Hono<Env>();

const Query = z.object({
  tags: z
    .string()
    .optional()
    .describe(`comma-separated tag names (at most ${MAX_TAG_LABELS}) to add as labels tag_<name>: "team" reads the tag team:<value>`),
});

metricsRoutes.get(
  "/",
  withQuery({
    method: "get",
    path: "/v1/metrics",
    summary: "Every monitor and location as Prometheus series (text exposition format 0.0.4)",
    tag: "metrics",
    auth: "apiKey",
    query: Query,
  }),
  async (c) => {
    const tagLabels = parseTagLabels(c.req.valid("query").tags);
    const body = await prometheusMetrics(c.var.deps.db, c.var.workspace.id, { tagLabels });
    const headers = { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store", vary: "accept-encoding" };
    // Prometheus asks for gzip by default. Level 1: the text shrinks ~20 times for a third of level 6's CPU.
    if (accepts(c, { header: "Accept-Encoding", supports: ["gzip"], default: "identity" }) === "gzip")
      return c.body(await gzipLevel1(body), 200, { ...headers, "content-encoding": "gzip" });
    return c.body(body, 200, headers);
  },
);
