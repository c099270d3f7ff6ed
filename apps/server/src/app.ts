import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { routePath } from "hono/route";
import { apiKeyAuth, probeAuth } from "./auth/bearer";
import { requireScope } from "./auth/scopes";
import type { Env, ServerDeps } from "./context";
import { errorBody, toErrorResponse } from "./errors";
import { openApiDocument } from "./openapi";
import { admin } from "./routes/admin";
import { auditLogRoutes } from "./routes/audit-log";
import { channels } from "./routes/channels";
import { acknowledgements, escalationPolicies } from "./routes/escalation";
import { heartbeats } from "./routes/heartbeats";
import { maintenances } from "./routes/maintenances";
import { metricsRoutes } from "./routes/metrics";
import { monitors } from "./routes/monitors";
import { pingRoutes } from "./routes/ping";
import { privateLocations } from "./routes/private-locations";
import { probe } from "./routes/probe";
import { slaRoutes } from "./routes/sla";
import { statusPages } from "./routes/status-pages";
import { statusReports } from "./routes/status-reports";
import { whoamiRoutes } from "./routes/whoami";
import { workspaceRoutes } from "./routes/workspace";

/** The REST API on top of a service app that already answers /healthz and /metrics. */
export function mountApi(app: Hono, deps: ServerDeps, opts: { trustedProxies?: readonly string[] } = {}): Hono {
  // Public pings first, outside the API's auth and body limit (a ping keeps its first 10 kB, never refuses).
  app.route("/ping", pingRoutes(deps, opts.trustedProxies ?? []));
  const api = new Hono<Env>();
  api.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
    deps.metrics.requests.inc({ method: c.req.method, route: routePath(c), status: String(c.res.status) });
  });
  api.use(
    "*",
    bodyLimit({ maxSize: 8 * 1024 * 1024, onError: (c) => c.json(errorBody("body_too_large", "request body is larger than 8 MiB"), 413) }),
  );
  api.onError((err, c) => {
    if (!(err instanceof Error) || err.name !== "HTTPException") deps.metrics.errors.inc({ kind: "unhandled" });
    return toErrorResponse(err, c, deps.logger);
  });
  api.notFound((c) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`), 404));

  api.get("/openapi.json", (c) => c.json(openApiDocument()));
  api.use("/v1/probe/*", probeAuth);
  api.route("/v1/probe", probe);
  // Before the API-key routes: an instance-admin token is no workspace key, and anything else answers 404 here.
  api.route("/v1/admin", admin);
  api.use("/v1/*", apiKeyAuth, requireScope);
  api.route("/v1", acknowledgements);
  api.route("/v1/metrics", metricsRoutes);
  api.route("/v1/sla", slaRoutes);
  api.route("/v1/monitors", monitors);
  api.route("/v1/heartbeats", heartbeats);
  api.route("/v1/escalation-policies", escalationPolicies);
  api.route("/v1/channels", channels);
  api.route("/v1/status-pages", statusPages);
  api.route("/v1/status-reports", statusReports);
  api.route("/v1/maintenances", maintenances);
  api.route("/v1", workspaceRoutes);
  api.route("/v1", whoamiRoutes);
  api.route("/v1/audit-log", auditLogRoutes);
  api.route("/v1/private-locations", privateLocations);

  app.route("/", api);
  // Every error in the one JSON shape, unknown routes included (the service app's own 404 is plain text).
  app.notFound((c) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`), 404));
  return app;
}
