import { AckInput, Acknowledgement, EscalationPolicy, EscalationPolicyInput, EscalationPolicyList } from "@vigil/api-contract";
import {
  acknowledgeAlert,
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  updateEscalationPolicy,
} from "@vigil/core";
import { Hono } from "hono";
import type { Env } from "../context";
import { describeRoute, withBody } from "../openapi";
import { idParam } from "./params";

/** Escalation policies (workspace objects) and acknowledging an alert; audience: the workspace's API keys. */
export const escalationPolicies = new Hono<Env>();
const tag = "escalation policies";

describeRoute({
  method: "get",
  path: "/v1/escalation-policies",
  summary: "List escalation policies",
  tag,
  auth: "apiKey",
  response: EscalationPolicyList,
});
escalationPolicies.get("/", async (c) => c.json({ policies: await listEscalationPolicies(c.var.deps.db, c.var.workspace.id) }));

const postBody = withBody(
  {
    method: "post",
    path: "/v1/escalation-policies",
    summary: "Create an escalation policy: ordered steps, each after N minutes unacknowledged",
    tag,
    auth: "apiKey",
    body: EscalationPolicyInput,
    response: EscalationPolicy,
    status: 201,
  },
  "escalation policy",
);
escalationPolicies.post("/", postBody, async (c) =>
  c.json(await createEscalationPolicy(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor), 201),
);

describeRoute({
  method: "get",
  path: "/v1/escalation-policies/:id",
  summary: "Read an escalation policy",
  tag,
  auth: "apiKey",
  response: EscalationPolicy,
});
escalationPolicies.get("/:id", async (c) => c.json(await getEscalationPolicy(c.var.deps.db, c.var.workspace.id, idParam(c))));

const putBody = withBody(
  {
    method: "put",
    path: "/v1/escalation-policies/:id",
    summary: "Replace an escalation policy",
    tag,
    auth: "apiKey",
    body: EscalationPolicyInput,
    response: EscalationPolicy,
  },
  "escalation policy",
);
escalationPolicies.put("/:id", putBody, async (c) =>
  c.json(await updateEscalationPolicy(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);

describeRoute({
  method: "delete",
  path: "/v1/escalation-policies/:id",
  summary: "Delete an escalation policy (its monitors keep their own channels)",
  tag,
  auth: "apiKey",
  status: 204,
});
escalationPolicies.delete("/:id", async (c) => {
  await deleteEscalationPolicy(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});

/** POST /v1/monitors/:id/ack and /v1/incidents/:id/ack: stops reminders and escalation of the open alert. */
export const acknowledgements = new Hono<Env>();
for (const target of ["monitors", "incidents"] as const) {
  const body = withBody(
    {
      method: "post",
      path: `/v1/${target}/:id/ack`,
      summary: `Acknowledge the open alert of ${target === "monitors" ? "a monitor" : "an incident"}: reminders and escalation stop`,
      tag: "acknowledgements",
      auth: "apiKey",
      body: AckInput,
      response: Acknowledgement,
    },
    "acknowledgement",
  );
  acknowledgements.post(`/${target}/:id/ack`, body, async (c) => {
    const id = idParam(c);
    const ack = await acknowledgeAlert(
      c.var.deps.db,
      c.var.workspace.id,
      target === "monitors" ? { monitorId: id } : { incidentId: id },
      c.var.actor,
      c.req.valid("json").via,
    );
    const { created, monitorName: _, ...out } = ack;
    return c.json(out, created ? 201 : 200);
  });
}
