import { redactUrl } from "@vigil/api-contract";
import { z } from "zod";

export const EVENT_TYPES = ["degraded", "error", "recovered", "test"] as const;
/** Text notices that are not a monitor's status change. */
export const NOTICE_KINDS = ["location-silent", "location-back"] as const;

/** What the workflows hand to the notifier: one monitor status change (or a test from the dashboard). */
export const NotificationEvent = z
  .object({
    type: z.enum(EVENT_TYPES),
    monitor: z.object({
      /** 0 only in a test notification, which never names a real monitor. */
      id: z.number().int().nonnegative(),
      /** May be empty: the spec makes a monitor's name optional; messages then show its URL. */
      name: z.string(),
      url: z.string().min(1),
    }),
    /** The scheduled slot of the check, ms since epoch. */
    cronTimestamp: z.number().int().nonnegative(),
    statusCode: z.number().int().min(100).max(999).optional(),
    latency: z.number().nonnegative().optional(),
    errorMessage: z.string().optional(),
    /** A reminder or escalation of an alert still open: how long the monitor has been down. Never in the webhook payload. */
    downForMs: z.number().int().nonnegative().optional(),
    /** The signed one-click acknowledge link; sent as a header or a message line, never a payload field. */
    ackUrl: z.string().url().optional(),
    /**
     * A notice that is not a monitor's status change (a private location gone silent, or back): text for chat,
     * e-mail, pager and push channels, which show its title, facts and link instead of the monitor's. Never
     * sent to a webhook channel, whose body is the spec's payload (monitor status changes only).
     */
    notice: z
      .object({
        kind: z.enum(NOTICE_KINDS),
        /** Names what the notice is about, for pager dedup keys: an `error` and its `recovered` share it. */
        key: z.string().min(1),
        title: z.string().min(1),
        link: z.string().url(),
        facts: z.array(z.object({ label: z.string().min(1), value: z.string() })),
      })
      .optional(),
  })
  // The one place of the rules every channel sees the event by: a recovery carries no error message (the
  // spec ties it to error and degraded, rules 1 and 2), whatever the evaluation found; and no alert
  // carries a URL's credentials (userinfo, token-like query values), in the monitor's URL or the error.
  .transform((e) => {
    const { errorMessage, ...rest } = e;
    const redacted = { ...rest, monitor: { ...e.monitor, url: redactUrl(e.monitor.url) } };
    if (e.type === "recovered" || errorMessage === undefined) return redacted as typeof e;
    return { ...redacted, errorMessage: redactUrl(errorMessage) };
  });
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/** The spec's webhook payload; strict, because rule 3 says no other field is defined. */
export const WebhookPayload = z.strictObject({
  monitor: z.strictObject({ id: z.number(), name: z.string(), url: z.string() }),
  cronTimestamp: z.number(),
  status: z.enum(["degraded", "error", "recovered"]),
  statusCode: z.number().optional(),
  latency: z.number().optional(),
  errorMessage: z.string().optional(),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/**
 * Maps an event to the spec's payload, field for field and in the spec's order.
 * A test event is sent as `recovered`: the spec allows only three statuses, and of those only
 * `recovered` cannot open an incident or page someone in the receiver's automation. Receivers
 * tell a test apart by the `x-vigil-event: test` header.
 */
export function toWebhookPayload(event: NotificationEvent): WebhookPayload {
  const status = event.type === "test" ? "recovered" : event.type;
  const payload: WebhookPayload = {
    monitor: { id: event.monitor.id, name: event.monitor.name, url: event.monitor.url },
    cronTimestamp: event.cronTimestamp,
    status,
  };
  if (event.statusCode !== undefined) payload.statusCode = event.statusCode;
  if (event.latency !== undefined) payload.latency = event.latency;
  if (event.errorMessage !== undefined) payload.errorMessage = event.errorMessage;
  return payload;
}
