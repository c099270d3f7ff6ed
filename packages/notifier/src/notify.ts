import { type Channel, NotifierSetupError, type OutgoingRequest } from "./channel";
import { validateChannelConfig } from "./config";
import type { NotifierEnv } from "./env";
import { NotificationEvent } from "./event";
import { channels, isChannelKind } from "./registry";
import { deliver, type SendOptions, type SendResult } from "./send";

export interface NotifyOptions {
  /** Per request; defaults to NOTIFIER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Sending time, ms since epoch; defaults to now. */
  now?: number;
  /** Stable per (event, channel): sent as `Idempotency-Key` / `x-vigil-delivery` where the channel allows headers. */
  deliveryId?: string;
  /** What the channel's URL may not reach: the instance's own endpoints. A refusal is permanent. */
  egress?: SendOptions["egress"];
  /** See SendOptions: a late answer's extra wait, and what to do when the timeout passes meanwhile. */
  lateMs?: number;
  onSlow?: () => void;
}

const permanent = (error: string): SendResult => ({ ok: false, retryable: false, error });

/**
 * Delivers one event to one channel: validates the stored config and the event, builds the
 * request(s) and sends them. Bad config or a missing env variable is a permanent failure, so the
 * queue does not retry what cannot succeed.
 */
export async function notify(
  channel: { kind: string; config: unknown },
  event: NotificationEvent,
  env: NotifierEnv,
  options: NotifyOptions = {},
): Promise<SendResult> {
  if (!isChannelKind(channel.kind)) return permanent(`unknown channel kind "${channel.kind}"`);
  const config = validateChannelConfig(channel.kind, channel.config);
  if (!config.ok) return permanent(`invalid ${channel.kind} config: ${config.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  // DECISIONS "Payloads": a webhook's body is the spec's payload, monitor status changes only; no opt-in exists yet.
  if (event.notice && channel.kind === "webhook") return permanent("a webhook channel receives monitor status changes only");
  const parsedEvent = NotificationEvent.safeParse(event);
  if (!parsedEvent.success)
    return permanent(`invalid event: ${parsedEvent.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);

  // Widened to the common interface: the registry is keyed by kind, so the config validated above fits its builder.
  const definition: Channel = channels[channel.kind];
  let built: OutgoingRequest | OutgoingRequest[];
  try {
    built = definition.build(config.config, parsedEvent.data, { env, now: options.now ?? Date.now(), deliveryId: options.deliveryId });
  } catch (err) {
    if (err instanceof NotifierSetupError) return permanent(err.message);
    throw err;
  }
  return deliver(Array.isArray(built) ? built : [built], {
    timeoutMs: options.timeoutMs ?? env.NOTIFIER_TIMEOUT_MS,
    egress: options.egress,
    lateMs: options.lateMs,
    onSlow: options.onSlow,
  });
}
