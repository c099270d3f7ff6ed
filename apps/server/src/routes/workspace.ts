import { PingKeyOutput, PingKeyPatch, pingUrlOf, workspaceOutput } from "@vigil/api-contract";
import { limitsOf, type PingKeySettings, pingKeySettings, rotatePingKey, setPingAutoCreate } from "@vigil/core";
import { Limits } from "@vigil/limits";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute, withBody } from "../openapi";

export const workspaceRoutes = new Hono<Env>();

describeRoute({
  method: "get",
  path: "/v1/workspace",
  summary: "The workspace and its effective limits",
  tag: "workspace",
  auth: "apiKey",
  response: workspaceOutput(Limits),
});
workspaceRoutes.get("/workspace", (c) => {
  const ws = c.var.workspace;
  const { limits, expired } = limitsOf(ws, Date.now(), (m) => c.var.deps.logger.warn({ workspaceId: ws.id }, m));
  return c.json({ id: ws.id, name: ws.name, plan: ws.plan, paidUntil: ws.paidUntil, endsAt: ws.endsAt, expired, limits });
});

// The ping key lets its holder ping (and, when allowed, create) any heartbeat by name: a write secret,
// so even reading it needs the write scope (see scopeFor).
const pingKeyOut = (s: PingKeySettings) => ({ ...s, pingUrlBase: s.pingKey === null ? null : pingUrlOf(s.pingKey) });

describeRoute({
  method: "get",
  path: "/v1/workspace/ping-key",
  summary: "The workspace's ping key for pings by name, and whether such a ping may create a heartbeat",
  tag: "heartbeats",
  auth: "apiKey",
  response: PingKeyOutput,
});
workspaceRoutes.get("/workspace/ping-key", async (c) => c.json(pingKeyOut(await pingKeySettings(c.var.deps.db, c.var.workspace.id))));

describeRoute({
  method: "post",
  path: "/v1/workspace/ping-key/rotate",
  summary: "Make the ping key, or replace it: every ping URL by name with the old key answers 404 from now on",
  tag: "heartbeats",
  auth: "apiKey",
  response: PingKeyOutput,
});
workspaceRoutes.post("/workspace/ping-key/rotate", async (c) => {
  await rotatePingKey(c.var.deps.db, c.var.workspace.id, c.var.actor);
  return c.json(pingKeyOut(await pingKeySettings(c.var.deps.db, c.var.workspace.id)));
});

workspaceRoutes.patch(
  "/workspace/ping-key",
  withBody(
    {
      method: "patch",
      path: "/v1/workspace/ping-key",
      summary: "Allow or forbid pings by name with `?create=1` to create a missing heartbeat (off by default)",
      tag: "heartbeats",
      auth: "apiKey",
      body: PingKeyPatch,
      response: PingKeyOutput,
    },
    "ping key settings",
  ),
  async (c) => {
    await setPingAutoCreate(c.var.deps.db, c.var.workspace.id, c.req.valid("json").autoCreate, c.var.actor);
    return c.json(pingKeyOut(await pingKeySettings(c.var.deps.db, c.var.workspace.id)));
  },
);
