import { Maintenance, MaintenanceInput, MaintenanceList, MaintenanceListQuery, MaintenancePatch } from "@vigil/api-contract";
import { createMaintenance, deleteMaintenance, getMaintenance, listMaintenances, updateMaintenance } from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute, withBody, withQuery } from "../openapi";
import { idParam } from "./params";

export const maintenances = new Hono<Env>();
const tag = "maintenance";
const base = "/v1/maintenances";

const getMaintenancesQuery = withQuery({
  method: "get",
  path: base,
  summary: "List maintenance windows, latest start first",
  tag,
  auth: "apiKey",
  query: MaintenanceListQuery,
  response: MaintenanceList,
});
maintenances.get("/", getMaintenancesQuery, async (c) =>
  c.json({ maintenances: await listMaintenances(c.var.deps.db, c.var.workspace.id, c.req.valid("query")) }),
);

const postMaintenancesBody = withBody(
  {
    method: "post",
    path: base,
    summary: "Schedule a maintenance window (maintenance feature); its monitors' alerts are held while it runs",
    tag,
    auth: "apiKey",
    body: MaintenanceInput,
    response: Maintenance,
    status: 201,
  },
  "maintenance",
);
maintenances.post("/", postMaintenancesBody, async (c) =>
  c.json(await createMaintenance(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor), 201),
);

describeRoute({ method: "get", path: `${base}/:id`, summary: "Read a maintenance window", tag, auth: "apiKey", response: Maintenance });
maintenances.get("/:id", async (c) => c.json(await getMaintenance(c.var.deps.db, c.var.workspace.id, idParam(c))));

const patchMaintenancesBody = withBody(
  {
    method: "patch",
    path: `${base}/:id`,
    summary: "Change a maintenance window",
    tag,
    auth: "apiKey",
    body: MaintenancePatch,
    response: Maintenance,
  },
  "maintenance",
);
maintenances.patch("/:id", patchMaintenancesBody, async (c) =>
  c.json(await updateMaintenance(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);

describeRoute({ method: "delete", path: `${base}/:id`, summary: "Delete a maintenance window", tag, auth: "apiKey", status: 204 });
maintenances.delete("/:id", async (c) => {
  await deleteMaintenance(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});
