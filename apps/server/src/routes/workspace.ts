import { limitsOf } from "@vigil/core";
import { Limits } from "@vigil/limits";
import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../context";
import { describeRoute } from "../openapi";

export const workspaceRoutes = new Hono<Env>();

const WorkspaceOut = z.object({
  id: z.number(),
  name: z.string().nullable(),
  plan: z.string().nullable(),
  paidUntil: z.number().nullable(),
  endsAt: z.number().nullable(),
  expired: z.boolean(),
  limits: Limits,
});
describeRoute({
  method: "get",
  path: "/v1/workspace",
  summary: "The workspace and its effective limits",
  tag: "workspace",
  auth: "apiKey",
  response: WorkspaceOut,
});
workspaceRoutes.get("/workspace", (c) => {
  const ws = c.var.workspace;
  const { limits, expired } = limitsOf(ws, Date.now(), (m) => c.var.deps.logger.warn({ workspaceId: ws.id }, m));
  return c.json({ id: ws.id, name: ws.name, plan: ws.plan, paidUntil: ws.paidUntil, endsAt: ws.endsAt, expired, limits });
});
