// A heartbeat's ping URL, state and ping log (API key of its workspace; another workspace's id is a 404).
import { heartbeatDetails, rotatePingToken } from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute } from "../openapi";
import { idParam } from "./params";

export const heartbeats = new Hono<Env>();
const tag = "heartbeats";

describeRoute({
  method: "get",
  path: "/v1/heartbeats/{id}",
  summary:
    "A heartbeat monitor's ping URL (null for a key without the write scope), state, next expected ping and newest pings (`?before=<ping id>` pages back)",
  tag,
  auth: "apiKey",
});
heartbeats.get("/:id", async (c) => {
  const before = Number(c.req.query("before"));
  const limit = Number(c.req.query("limit"));
  const details = await heartbeatDetails(c.var.deps.db, c.var.workspace.id, idParam(c), {
    ...(Number.isSafeInteger(before) && before > 0 && { before }),
    ...(Number.isSafeInteger(limit) && limit > 0 && { limit }),
  });
  // A ping URL can raise or silence an alert: a read-only key sees the heartbeat, not the URL.
  return c.json(c.var.apiKeyScopes.includes("write") ? details : { ...details, pingUrl: null });
});

describeRoute({
  method: "post",
  path: "/v1/heartbeats/{id}/rotate",
  summary: "Give a heartbeat a new ping token; the old ping URL answers 404 from now on",
  tag,
  auth: "apiKey",
});
heartbeats.post("/:id/rotate", async (c) => {
  await rotatePingToken(c.var.deps.db, c.var.workspace.id, idParam(c));
  return c.json(await heartbeatDetails(c.var.deps.db, c.var.workspace.id, idParam(c), { limit: 1 }));
});
