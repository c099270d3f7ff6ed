import { PrivateLocationInput } from "@vigil/api-contract";
import { createPrivateLocation, deletePrivateLocation, listPrivateLocations } from "@vigil/core";
import { Hono } from "hono";
import type { z } from "zod";
import type { Env } from "../context";
import { describeRoute, withBody } from "../openapi";
import { idParam } from "./params";

export const privateLocations = new Hono<Env>();

const tag = "private locations";
describeRoute({ method: "get", path: "/v1/private-locations", summary: "List private locations with last seen", tag, auth: "apiKey" });
privateLocations.get("/", async (c) => c.json({ privateLocations: await listPrivateLocations(c.var.deps.db, c.var.workspace.id) }));

const postPrivateLocationsBody = withBody(
  {
    method: "post",
    path: "/v1/private-locations",
    summary: "Create a private location; its SERVICE_KEY is shown once",
    tag,
    auth: "apiKey",
    body: PrivateLocationInput,
    status: 201,
  },
  "private location",
);
privateLocations.post("/", postPrivateLocationsBody, async (c) => {
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
privateLocations.delete("/:id", async (c) => {
  await deletePrivateLocation(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});
