// Notification channels as the API answers them, and the bodies and queries of their routes.
import { z } from "zod";
import { CHANNEL_KINDS } from "./common";

export const Channel = z.object({
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
export type Channel = z.infer<typeof Channel>;
export const ChannelList = z.object({ channels: z.array(Channel) });

/**
 * The create body as documented: the common fields with each kind's own config fields. The config schemas
 * live with their senders (@vigil/notifier, which depends on this package), so they are passed in.
 */
export const channelInputByKind = (input: z.ZodObject, configOf: (kind: (typeof CHANNEL_KINDS)[number]) => z.ZodType) =>
  z.discriminatedUnion(
    "kind",
    CHANNEL_KINDS.map((kind) => input.extend({ kind: z.literal(kind), config: configOf(kind) })) as unknown as [
      z.ZodObject,
      ...z.ZodObject[],
    ],
  );

/** PUT /v1/channels/:id/monitors */
export const ChannelMonitorsInput = z.object({ monitors: z.array(z.number().int().positive()).max(10_000) });
/** GET /v1/channels/:id/deliveries */
export const ChannelDeliveryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
/** POST /v1/channels/:id/test */
export const ChannelTestOutput = z.object({ ok: z.boolean(), status: z.number().optional(), error: z.string().optional() });
