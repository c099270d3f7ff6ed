// Instance-admin routes: an instance-admin token (vgl_adm_…) only. Anyone else gets exactly the 404 of a
// route that does not exist, so the area is not even visible; left out of /openapi.json for the same reason.
import {
  AdminLimitsInput,
  AdminPlanInput,
  adminSetLimits,
  adminSetPlan,
  CreateForInput,
  createWorkspaceFor,
  getInstanceWorkspace,
  InstanceInviteInput,
  inviteToInstance,
  listInstanceAudit,
  listInstanceWorkspaces,
  listUsers,
  NotFoundError,
  setUserDisabled,
  verifyAdminToken,
} from "@vigil/core";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { Env } from "../context";
import { errorBody } from "../errors";
import { valid } from "../validate";

const bearer = (header: string | undefined) => (header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined);

/** An instance-admin token, else the unknown route's 404. */
export const adminTokenAuth = createMiddleware<Env>(async (c, next) => {
  const token = bearer(c.req.header("authorization"));
  const found = token ? await verifyAdminToken(c.var.deps.db, token) : null;
  if (!found) return c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`), 404);
  c.set("actor", `admin-token:${found.id}`);
  await next();
});

const wsId = (raw: string) => {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError("workspace", raw);
  return id;
};

export const admin = new Hono<Env>();
admin.use("*", adminTokenAuth);

admin.get("/workspaces", async (c) => c.json({ workspaces: await listInstanceWorkspaces(c.var.deps.db) }));

admin.get("/workspaces/:id", async (c) => {
  const w = await getInstanceWorkspace(c.var.deps.db, wsId(c.req.param("id")));
  if (!w) throw new NotFoundError("workspace", c.req.param("id"));
  return c.json(w);
});

admin.post("/workspaces", valid("json", CreateForInput, "workspace"), async (c) => {
  const made = await createWorkspaceFor(c.var.deps.db, c.req.valid("json"), c.var.actor);
  return c.json(
    {
      workspace: await getInstanceWorkspace(c.var.deps.db, made.workspace.id),
      email: made.email,
      joined: made.joined,
      // The dashboard's /invite/<token> page accepts it; shown once.
      invitationToken: made.invitationToken,
    },
    201,
  );
});

admin.put("/workspaces/:id/limits", valid("json", AdminLimitsInput, "limits"), async (c) => {
  const id = wsId(c.req.param("id"));
  const limits = await adminSetLimits(c.var.deps.db, id, c.req.valid("json"), c.var.actor);
  return c.json({ id, limits });
});

admin.put("/workspaces/:id/plan", valid("json", AdminPlanInput, "plan"), async (c) => {
  const id = wsId(c.req.param("id"));
  await adminSetPlan(c.var.deps.db, id, c.req.valid("json"), c.var.actor);
  return c.json(await getInstanceWorkspace(c.var.deps.db, id));
});

admin.post("/invitations", valid("json", InstanceInviteInput, "invitation"), async (c) =>
  c.json(await inviteToInstance(c.var.deps.db, c.req.valid("json"), c.var.actor), 201),
);

admin.get("/users", async (c) => c.json({ users: await listUsers(c.var.deps.db) }));

for (const [verb, disabled] of [
  ["disable", true],
  ["enable", false],
] as const) {
  admin.post(`/users/:id/${verb}`, async (c) => c.json(await setUserDisabled(c.var.deps.db, c.req.param("id"), disabled, c.var.actor)));
}

admin.get("/audit-log", async (c) => c.json({ entries: await listInstanceAudit(c.var.deps.db) }));
