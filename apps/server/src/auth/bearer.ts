import { verifyApiKey, verifyLocationKey } from "@vigil/core";
import { createMiddleware } from "hono/factory";
import type { Env } from "../context";
import { errorBody } from "../errors";

const bearer = (header: string | undefined) => {
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
};

/** API key → workspace; another workspace's resources then answer 404, not 403. */
export const apiKeyAuth = createMiddleware<Env>(async (c, next) => {
  const token = bearer(c.req.header("authorization"));
  const found = token ? await verifyApiKey(c.var.deps.db, token) : null;
  if (!found) return c.json(errorBody("unauthorized", "missing or invalid API key (Authorization: Bearer <key>)"), 401);
  c.set("workspace", found.workspace);
  c.set("apiKeyId", found.keyId);
  c.set("apiKeyName", found.keyName);
  c.set("apiKeyScopes", found.scopes);
  c.set("actor", `api-key:${found.keyId}`);
  await next();
});

export const unknownLocationKey = () =>
  errorBody("unauthorized", "unknown SERVICE_KEY: create a private location and use the key it shows");

/**
 * SERVICE_KEY → private location, checked on every request: a deleted location's probe is refused at once, on
 * every server process. A results batch checks it inside its own write (one round trip, not two); any other
 * request reads it here.
 */
export const probeAuth = createMiddleware<Env>(async (c, next) => {
  const token = bearer(c.req.header("authorization"));
  if (c.req.method === "POST" && c.req.path === "/v1/probe/results") {
    const location = token ? await c.var.deps.locationKeys.find(c.var.deps.db, token) : null;
    if (!location) return c.json(unknownLocationKey(), 401);
    c.set("location", location);
    c.set("actor", `location:${location.id}`);
    return next();
  }
  const found = token ? await verifyLocationKey(c.var.deps.db, token) : null;
  if (!found) return c.json(unknownLocationKey(), 401);
  const { location } = found;
  c.set("location", { id: location.id, workspaceId: location.workspaceId, name: location.name, region: location.region });
  c.set("workspace", found.workspace);
  c.set("actor", `location:${location.id}`);
  await next();
});
