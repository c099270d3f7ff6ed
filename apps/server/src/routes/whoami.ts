import { WhoAmI } from "@vigil/api-contract";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute } from "../openapi";

export const whoamiRoutes = new Hono<Env>();

describeRoute({
  method: "get",
  path: "/v1/whoami",
  summary: "The workspace and API key in use",
  tag: "workspace",
  auth: "apiKey",
  response: WhoAmI,
});
whoamiRoutes.get("/whoami", (c) =>
  c.json({
    workspace: { id: c.var.workspace.id, name: c.var.workspace.name, plan: c.var.workspace.plan },
    apiKey: { id: c.var.apiKeyId, name: c.var.apiKeyName, scopes: c.var.apiKeyScopes },
  }),
);
