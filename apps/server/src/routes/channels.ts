import {
  Channel,
  ChannelDeliveryQuery,
  ChannelList,
  ChannelMonitorsInput,
  ChannelPatch,
  ChannelTestOutput,
  channelInputByKind,
} from "@vigil/api-contract";
import { createChannel, deleteChannel, getChannel, listChannels, listDeliveries, sendTestNotification, updateChannel } from "@vigil/core";
import { channels as channelKinds } from "@vigil/notifier";
import { Hono } from "hono";
import type { Env } from "../context";
import { errorBody } from "../errors";
import { describeRoute, withBody, withQuery } from "../openapi";
import { idParam } from "./params";

export const channels = new Hono<Env>();
const tag = "notification channels";
describeRoute({
  method: "get",
  path: "/v1/channels",
  summary: "List notification channels (secrets shown as ***)",
  tag,
  auth: "apiKey",
  response: ChannelList,
});
channels.get("/", async (c) => c.json({ channels: await listChannels(c.var.deps.db, c.var.workspace.id) }));

// The documented body names each kind's config fields, from the same schemas core validates with.
const ChannelInputByKind = channelInputByKind((kind) => channelKinds[kind].config);
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

const putChannelsMonitorsBody = withBody(
  {
    method: "put",
    path: "/v1/channels/:id/monitors",
    summary: "Set the monitors this channel alerts for",
    tag,
    auth: "apiKey",
    body: ChannelMonitorsInput,
    response: Channel,
  },
  "channel",
);
channels.put("/:id/monitors", putChannelsMonitorsBody, async (c) =>
  c.json(await updateChannel(c.var.deps.db, c.var.workspace.id, idParam(c), { monitors: c.req.valid("json").monitors }, c.var.actor)),
);

const getChannelsDeliveriesQuery = withQuery({
  method: "get",
  path: "/v1/channels/:id/deliveries",
  summary: "The channel's delivery log: every attempt, its outcome and the provider's answer",
  tag,
  auth: "apiKey",
  query: ChannelDeliveryQuery,
});
channels.get("/:id/deliveries", getChannelsDeliveriesQuery, async (c) =>
  c.json({
    deliveries: await listDeliveries(c.var.deps.db, c.var.workspace.id, idParam(c), c.req.valid("query").limit),
  }),
);

describeRoute({
  method: "post",
  path: "/v1/channels/:id/test",
  summary: "Send a test message through the channel",
  tag,
  auth: "apiKey",
  response: ChannelTestOutput,
});
channels.post("/:id/test", async (c) => {
  const { db, notifierEnv: env, egress, limiter } = c.var.deps;
  const outcome = await sendTestNotification(db, c.var.workspace.id, idParam(c), c.var.actor, { env, egress, limiter });
  if (outcome.ok) return c.json({ ok: true, status: outcome.status });
  return c.json(errorBody("delivery_failed", outcome.error, { status: outcome.status, retryable: outcome.retryable }), 502);
});
