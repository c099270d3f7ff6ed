import {
  ChannelInput,
  ChannelPatch,
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  listDeliveries,
  sendTestNotification,
  updateChannel,
} from "@vigil/core";
import { CHANNEL_KINDS, channels as channelKinds } from "@vigil/notifier";
import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../context";
import { errorBody } from "../errors";
import { describeRoute, withBody, withQuery } from "../openapi";
import { idParam } from "./params";

export const channels = new Hono<Env>();
const tag = "notification channels";
const Channel = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  config: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  /** One delivery attempt's wait for the receiver's answer, ms (1000-30000). */
  timeoutMs: z.number(),
  failingSince: z.number().nullable(),
  monitors: z.array(z.number()),
  createdAt: z.number(),
  updatedAt: z.number(),
});

describeRoute({
  method: "get",
  path: "/v1/channels",
  summary: "List notification channels (secrets shown as ***)",
  tag,
  auth: "apiKey",
  response: z.object({ channels: z.array(Channel) }),
});
channels.get("/", async (c) => c.json({ channels: await listChannels(c.var.deps.db, c.var.workspace.id) }));

// The documented body names each kind's config fields, from the same schemas core validates with.
const ChannelInputByKind = z.discriminatedUnion(
  "kind",
  CHANNEL_KINDS.map((kind) => ChannelInput.extend({ kind: z.literal(kind), config: channelKinds[kind].config })) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ],
);
const postChannelsBody = withBody(
  {
    method: "post",
    path: "/v1/channels",
    summary: "Create a notification channel (config fields per kind)",
    tag,
    auth: "apiKey",
    body: ChannelInputByKind,
    response: Channel,
    status: 201,
  },
  "channel",
);
channels.post("/", postChannelsBody, async (c) =>
  c.json(await createChannel(c.var.deps.db, c.var.workspace.id, c.req.valid("json"), c.var.actor), 201),
);

describeRoute({ method: "get", path: "/v1/channels/:id", summary: "Read a notification channel", tag, auth: "apiKey", response: Channel });
channels.get("/:id", async (c) => c.json(await getChannel(c.var.deps.db, c.var.workspace.id, idParam(c))));

const patchChannelsBody = withBody(
  {
    method: "patch",
    path: "/v1/channels/:id",
    summary: "Change a channel; *** keeps a stored secret",
    tag,
    auth: "apiKey",
    body: ChannelPatch,
    response: Channel,
  },
  "channel",
);
channels.patch("/:id", patchChannelsBody, async (c) =>
  c.json(await updateChannel(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("json"), c.var.actor)),
);

describeRoute({ method: "delete", path: "/v1/channels/:id", summary: "Delete a channel", tag, auth: "apiKey", status: 204 });
channels.delete("/:id", async (c) => {
  await deleteChannel(c.var.deps.db, c.var.workspace.id, idParam(c), c.var.actor);
  return c.body(null, 204);
});

for (const [action, enabled] of [
  ["enable", true],
  ["disable", false],
] as const) {
  describeRoute({
    method: "post",
    path: `/v1/channels/:id/${action}`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a channel`,
    tag,
    auth: "apiKey",
    response: Channel,
  });
  channels.post(`/:id/${action}`, async (c) =>
    c.json(await updateChannel(c.var.deps.db, c.var.workspace.id, idParam(c), { enabled }, c.var.actor)),
  );
}

const Links = z.object({ monitors: z.array(z.number().int().positive()).max(10_000) });
const putChannelsMonitorsBody = withBody(
  {
    method: "put",
    path: "/v1/channels/:id/monitors",
    summary: "Set the monitors this channel alerts for",
    tag,
    auth: "apiKey",
    body: Links,
    response: Channel,
  },
  "channel",
);
channels.put("/:id/monitors", putChannelsMonitorsBody, async (c) =>
  c.json(await updateChannel(c.var.deps.db, c.var.workspace.id, idParam(c), { monitors: c.req.valid("json").monitors }, c.var.actor)),
);

const DeliveryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const getChannelsDeliveriesQuery = withQuery({
  method: "get",
  path: "/v1/channels/:id/deliveries",
  summary: "The channel's delivery log: every attempt, its outcome and the provider's answer",
  tag,
  auth: "apiKey",
  query: DeliveryQuery,
});
channels.get("/:id/deliveries", getChannelsDeliveriesQuery, async (c) =>
  c.json({
    deliveries: await listDeliveries(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("query").limit),
  }),
);

const TestOutput = z.object({ ok: z.boolean(), status: z.number().optional(), error: z.string().optional() });
describeRoute({
  method: "post",
  path: "/v1/channels/:id/test",
  summary: "Send a test message through the channel",
  tag,
  auth: "apiKey",
  response: TestOutput,
});
channels.post("/:id/test", async (c) => {
  const { db, notifierEnv: env, egress, limiter } = c.var.deps;
  const outcome = await sendTestNotification(db, c.var.workspace.id, idParam(c), c.var.actor, { env, egress, limiter });
  if (outcome.ok) return c.json({ ok: true, status: outcome.status });
  return c.json(errorBody("delivery_failed", outcome.error, { status: outcome.status, retryable: outcome.retryable }), 502);
});
