import {
  ComponentGroup,
  ComponentGroupInput,
  ComponentGroupPatch,
  ComponentInput,
  ComponentList,
  ComponentOrderInput,
  ComponentPatch,
  DomainVerification,
  PageComponent,
  StatusPage,
  StatusPageInput,
  StatusPageList,
  StatusPagePatch,
} from "@vigil/api-contract";
import {
  createComponent,
  createComponentGroup,
  createStatusPage,
  deleteComponent,
  deleteComponentGroup,
  deleteStatusPage,
  getStatusPage,
  listComponents,
  listStatusPages,
  reorderComponents,
  updateComponent,
  updateComponentGroup,
  updateStatusPage,
  verifyCustomDomain,
} from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute, withBody } from "../openapi";
import { idParam } from "./params";

export const statusPages = new Hono<Env>();
const tag = "status pages";
const base = "/v1/status-pages";

describeRoute({
  method: "get",
  path: base,
  summary: "List status pages",
  tag,
  auth: "apiKey",
  response: StatusPageList,
});
statusPages.get("/", async (c) => c.json({ statusPages: await listStatusPages(c.var.deps.db, c.var.workspace.id) }));

const postStatusPagesBody = withBody(
  {
    method: "post",
    path: base,
    summary: "Create a status page (status-pages limit; custom domain, password and white-label are plan features)",
    tag,
    auth: "apiKey",
    body: StatusPageInput,
    response: StatusPage,
    status: 201,
  },
  "status page",
);
statusPages.post("/", postStatusPagesBody, async (c) =>
  c.json(await createStatusPage(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor), 201),
);

// Groups and components by their own id (registered before /:id so the words are not read as ids).
const patchStatusPagesGroupsBody = withBody(
  {
    method: "patch",
    path: `${base}/groups/:id`,
    summary: "Rename or move a component group",
    tag,
    auth: "apiKey",
    body: ComponentGroupPatch,
    response: ComponentGroup,
  },
  "group",
);
statusPages.patch("/groups/:id", patchStatusPagesGroupsBody, async (c) =>
  c.json(await updateComponentGroup(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);
describeRoute({
  method: "delete",
  path: `${base}/groups/:id`,
  summary: "Delete a group (its components stay, ungrouped)",
  tag,
  auth: "apiKey",
  status: 204,
});
statusPages.delete("/groups/:id", async (c) => {
  await deleteComponentGroup(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});
const patchStatusPagesComponentsBody = withBody(
  {
    method: "patch",
    path: `${base}/components/:id`,
    summary: "Change a component",
    tag,
    auth: "apiKey",
    body: ComponentPatch,
    response: PageComponent,
  },
  "component",
);
statusPages.patch("/components/:id", patchStatusPagesComponentsBody, async (c) =>
  c.json(await updateComponent(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);
describeRoute({ method: "delete", path: `${base}/components/:id`, summary: "Delete a component", tag, auth: "apiKey", status: 204 });
statusPages.delete("/components/:id", async (c) => {
  await deleteComponent(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});

describeRoute({ method: "get", path: `${base}/:id`, summary: "Read a status page", tag, auth: "apiKey", response: StatusPage });
statusPages.get("/:id", async (c) => c.json(await getStatusPage(c.var.deps.db, c.var.workspace.id, idParam(c))));

const patchStatusPagesBody = withBody(
  {
    method: "patch",
    path: `${base}/:id`,
    summary: "Change a status page; password null removes it",
    tag,
    auth: "apiKey",
    body: StatusPagePatch,
    response: StatusPage,
  },
  "status page",
);
statusPages.patch("/:id", patchStatusPagesBody, async (c) =>
  c.json(await updateStatusPage(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);

describeRoute({ method: "delete", path: `${base}/:id`, summary: "Delete a status page", tag, auth: "apiKey", status: 204 });
statusPages.delete("/:id", async (c) => {
  await deleteStatusPage(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});

describeRoute({
  method: "post",
  path: `${base}/:id/domain/verify`,
  summary: "Check the proof of the page's custom domain now (HTTP file or DNS TXT record); only a proven domain is served",
  tag,
  auth: "apiKey",
  response: DomainVerification,
});
statusPages.post("/:id/domain/verify", async (c) =>
  c.json(await verifyCustomDomain(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor, { egress: c.var.deps.egress })),
);

describeRoute({
  method: "get",
  path: `${base}/:id/components`,
  summary: "The page's groups and components, in order",
  tag,
  auth: "apiKey",
  response: ComponentList,
});
statusPages.get("/:id/components", async (c) => c.json(await listComponents(c.var.deps.db, c.var.workspace.id, idParam(c))));

const postStatusPagesGroupsBody = withBody(
  {
    method: "post",
    path: `${base}/:id/groups`,
    summary: "Add a component group",
    tag,
    auth: "apiKey",
    body: ComponentGroupInput,
    response: ComponentGroup,
    status: 201,
  },
  "group",
);
statusPages.post("/:id/groups", postStatusPagesGroupsBody, async (c) =>
  c.json(await createComponentGroup(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor), 201),
);

const postStatusPagesComponentsBody = withBody(
  {
    method: "post",
    path: `${base}/:id/components`,
    summary: "Add a component: monitor-linked (monitorId) or static (staticStatus)",
    tag,
    auth: "apiKey",
    body: ComponentInput,
    response: PageComponent,
    status: 201,
  },
  "component",
);
statusPages.post("/:id/components", postStatusPagesComponentsBody, async (c) =>
  c.json(await createComponent(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor), 201),
);

for (const what of ["components", "groups"] as const) {
  const orderBody = withBody(
    {
      method: "put",
      path: `${base}/:id/${what}/order`,
      summary: `Order the page's ${what} as listed`,
      tag,
      auth: "apiKey",
      body: ComponentOrderInput,
      status: 204,
    },
    what,
  );
  statusPages.put(`/:id/${what}/order`, orderBody, async (c) => {
    await reorderComponents(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json").ids, c.var.actor, what);
    return c.body(null, 204);
  });
}
