import { createHmac } from "node:crypto";
import { z } from "zod";
import { defineChannel } from "../channel";
import { toWebhookPayload } from "../event";
import { headerMap, httpUrl } from "../fields";

/** HMAC-SHA256 over `${timestamp}.${body}`, so a captured request cannot be replayed with a new timestamp. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return "sha256=" + createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export const webhook = defineChannel({
  kind: "webhook",
  config: z
    .object({
      url: httpUrl("https://example.com/hooks/vigil").meta({
        title: "URL",
        description: "Receives a POST with the JSON payload: monitor, cronTimestamp, status and the check's details.",
        examples: ["https://example.com/hooks/vigil"],
      }),
      headers: headerMap()
        .default({})
        .meta({ title: "Headers", description: "Sent with every request, e.g. Authorization. Values are stored as secrets." }),
      secret: z.string({ error: "must be a string" }).min(16, "must be at least 16 characters").optional().meta({
        title: "Signing secret",
        description: "Optional, 16 characters or more: each request then carries x-vigil-signature, an HMAC-SHA256 of timestamp.body.",
      }),
    })
    .meta({ title: "Webhook", description: "A POST of the JSON payload to your own URL." }),
  secrets: ["headers", "secret"],
  destination: "url",
  build: (config, event, { now, deliveryId }) => {
    const body = JSON.stringify(toWebhookPayload(event)); // exactly the spec's fields, nothing more
    // Header names are case-insensitive: lower-casing the user's keeps one value per name.
    const userHeaders = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const headers: Record<string, string> = {
      "content-type": "application/json",
      // The payload has no room for "this is a test", so the event type travels in a header.
      "x-vigil-event": event.type,
      // Delivery is at least once (a crash between the receiver's 2xx and our log resends): the
      // same key on every retry lets the receiver drop the copy. The body stays the spec's.
      ...(deliveryId !== undefined ? { "idempotency-key": deliveryId, "x-vigil-delivery": deliveryId } : {}),
      // The payload's fields are fixed: the acknowledge link travels as a header (a GET shows a confirm page).
      ...(event.ackUrl && event.type !== "recovered" ? { "x-vigil-ack-url": event.ackUrl } : {}),
      ...userHeaders,
    };
    if (config.secret !== undefined) {
      const timestamp = Math.floor(now / 1000);
      headers["x-vigil-timestamp"] = String(timestamp);
      headers["x-vigil-signature"] = signWebhook(config.secret, timestamp, body);
    }
    return { transport: "http", method: "POST", url: config.url, headers, body };
  },
});
