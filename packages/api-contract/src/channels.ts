// Notification channels: the bodies and queries of their routes, and the answers.
import { z } from "zod";
import { CHANNEL_KINDS } from "./common";

const name = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const monitorIds = z.array(z.number().int().positive()).max(10_000);
/** How long one delivery attempt waits for the receiver before the next one is planned: 1 to 30 s. */
export const DeliveryTimeout = z
  .number()
  .int("must be a whole number of milliseconds")
  .min(1000, "must be 1000-30000 ms (1-30 s)")
  .max(30_000, "must be 1000-30000 ms (1-30 s)");

export const ChannelInput = z
  .object({
    name,
    kind: z.enum(CHANNEL_KINDS, { error: `must be one of ${CHANNEL_KINDS.join(", ")}` }),
    config: z.record(z.string(), z.unknown()),
    enabled: z.boolean().default(true),
    timeoutMs: DeliveryTimeout.default(10_000),
    /** Monitors to alert through this channel. */
    monitors: monitorIds.optional(),
  })
  .strict();

export const ChannelPatch = z
  .object({
    name: name.optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    enabled: z.boolean().optional(),
    timeoutMs: DeliveryTimeout.optional(),
    monitors: monitorIds.optional(),
  })
  .strict();

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
 * The create body as documented: ChannelInput with each kind's own config fields. The config schemas
 * live with their senders (@vigil/notifier, which depends on this package), so they are passed in.
 */
export const channelInputByKind = (configOf: (kind: (typeof CHANNEL_KINDS)[number]) => z.ZodType) =>
  z.discriminatedUnion(
    "kind",
    CHANNEL_KINDS.map((kind) => ChannelInput.extend({ kind: z.literal(kind), config: configOf(kind) })) as unknown as [
      z.ZodObject,
      ...z.ZodObject[],
    ],
  );

/** PUT /v1/channels/:id/monitors */
export const ChannelMonitorsInput = z.object({ monitors: monitorIds });
/** GET /v1/channels/:id/deliveries */
export const ChannelDeliveryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
/** POST /v1/channels/:id/test */
export const ChannelTestOutput = z.object({ ok: z.boolean(), status: z.number().optional(), error: z.string().optional() });
