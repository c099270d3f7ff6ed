import { WhoAmI } from "@vigil/api-contract";
import {
  createPrivateLocation,
  deletePrivateLocation,
  limitsOf,
  listAuditLog,
  listPrivateLocations,
  PrivateLocationInput,
} from "@vigil/core";
import { Limits } from "@vigil/limits";
import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../context";
import { describeRoute } from "../openapi";
import { valid } from "../validate";
import { idParam } from "./params";

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

describeRoute({
  method: "get",
  path: "/v1/whoami",
  summary: "The workspace and API key in use",
  tag: "workspace",
  auth: "apiKey",
  response: WhoAmI,
});
workspaceRoutes.get("/whoami", (c) =>
  c.json({
    workspace: { id: c.var.workspace.id, name: c.var.workspace.name, plan: c.var.workspace.plan },
    apiKey: { id: c.var.apiKeyId, name: c.var.apiKeyName },
  }),
);

const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
});
describeRoute({
  method: "get",
  path: "/v1/audit-log",
  summary: "Who changed what, newest first",
  tag: "workspace",
  auth: "apiKey",
  query: AuditQuery,
});
workspaceRoutes.get("/audit-log", valid("query", AuditQuery, "query"), async (c) =>
  c.json({ entries: await listAuditLog(c.var.deps.db, c.var.workspace.id, c.req.valid("query")) }),
);

const tag = "private locations";
describeRoute({ method: "get", path: "/v1/private-locations", summary: "List private locations with last seen", tag, auth: "apiKey" });
workspaceRoutes.get("/private-locations", async (c) =>
  c.json({ privateLocations: await listPrivateLocations(c.var.deps.db, c.var.workspace.id) }),
);

describeRoute({
  method: "post",
  path: "/v1/private-locations",
  summary: "Create a private location; its SERVICE_KEY is shown once",
  tag,
  auth: "apiKey",
  body: PrivateLocationInput,
  status: 201,
});
workspaceRoutes.post("/private-locations", valid("json", z.unknown(), "private location"), async (c) => {
  const { location, key } = await createPrivateLocation(
    c.var.deps.db,
    c.var.workspace.id,
    c.req.valid("json") as z.input<typeof PrivateLocationInput>,
    c.var.actor,
  );
  return c.json({ ...location, serviceKey: key }, 201);
});

describeRoute({
  method: "delete",
  path: "/v1/private-locations/:id",
  summary: "Delete a private location; its probe is refused from then on",
  tag,
  auth: "apiKey",
  status: 204,
});
workspaceRoutes.delete("/private-locations/:id", async (c) => {
  await deletePrivateLocation(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});
