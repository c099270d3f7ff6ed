import {
  ComponentGroupInput,
  ComponentInput,
  ComponentPatch,
  PAGE_LANGUAGE_VALUES,
  StatusPageInput,
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
import { z } from "zod";
import type { Env } from "../context";
import { describeRoute, withBody } from "../openapi";
import { idParam } from "./params";

export const statusPages = new Hono<Env>();
const tag = "status pages";
const base = "/v1/status-pages";

/** A custom domain is served only once proven: serve `token` at `httpUrl`, or add the TXT record. */
const DomainVerification = z.object({
  state: z.enum(["pending", "verified", "failed"]),
  token: z.string(),
  httpUrl: z.string(),
  txtName: z.string(),
  txtValue: z.string(),
  verifiedAt: z.number().nullable(),
  checkedAt: z.number().nullable(),
  error: z.string().nullable(),
});

/** What a page looks like through the API: `passwordProtected`, never the password or its hash. */
const StatusPage = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  logoUrl: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  theme: z.enum(["system", "light", "dark"]),
  language: z.enum(PAGE_LANGUAGE_VALUES),
  customDomain: z.string().nullable(),
  domainVerification: DomainVerification.nullable(),
  passwordProtected: z.boolean(),
  whiteLabel: z.boolean(),
  allowIndex: z.boolean(),
  published: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
const Group = z.object({ id: z.number(), pageId: z.number(), name: z.string(), order: z.number() });
const Component = z.object({
  id: z.number(),
  pageId: z.number(),
  groupId: z.number().nullable(),
  monitorId: z.number().nullable(),
  name: z.string(),
  description: z.string(),
  staticStatus: z.string(),
  order: z.number(),
});

describeRoute({
  method: "get",
  path: base,
  summary: "List status pages",
  tag,
  auth: "apiKey",
  response: z.object({ statusPages: z.array(StatusPage) }),
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
    body: ComponentGroupInput.partial(),
    response: Group,
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
    response: Component,
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
  response: z.object({ groups: z.array(Group), components: z.array(Component) }),
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
    response: Group,
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
    response: Component,
    status: 201,
  },
  "component",
);
statusPages.post("/:id/components", postStatusPagesComponentsBody, async (c) =>
  c.json(await createComponent(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor), 201),
);

const Order = z.object({ ids: z.array(z.number().int().positive()).max(1000) }).strict();
for (const what of ["components", "groups"] as const) {
  const orderBody = withBody(
    {
      method: "put",
      path: `${base}/:id/${what}/order`,
      summary: `Order the page's ${what} as listed`,
      tag,
      auth: "apiKey",
      body: Order,
      status: 204,
    },
    what,
  );
  statusPages.put(`/:id/${what}/order`, orderBody, async (c) => {
    await reorderComponents(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json").ids, c.var.actor, what);
    return c.body(null, 204);
  });
}
