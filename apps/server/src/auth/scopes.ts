import type { ApiKeyScope } from "@vigil/core";
import { createMiddleware } from "hono/factory";
import type { Env } from "../context";
import { errorBody } from "../errors";

/**
 * The scope a request needs: reads need `read`, private locations' changes `probe-admin`, every other change
 * `write`; the ping key is a write secret, so reading it needs `write` too.
 */
export function scopeFor(method: string, path: string): ApiKeyScope {
  if (/^\/v1\/workspace\/ping-key(\/|$)/.test(path)) return "write";
  if (method === "GET" || method === "HEAD") return "read";
  if (/^\/v1\/private-locations(\/|$)/.test(path)) return "probe-admin";
  return "write";
}

/** After apiKeyAuth: a key without the request's scope is refused before any route runs (403, naming the scope). */
export const requireScope = createMiddleware<Env>(async (c, next) => {
  const needed = scopeFor(c.req.method, c.req.path);
  if (!c.var.apiKeyScopes.includes(needed)) {
    return c.json(
      errorBody(
        "forbidden",
        `this API key lacks the ${needed} scope (it has: ${c.var.apiKeyScopes.join(", ") || "none"}); create a key with ${needed} in the dashboard`,
        { missingScope: needed, scopes: c.var.apiKeyScopes },
      ),
      403,
    );
  }
  await next();
});
