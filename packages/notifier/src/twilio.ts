import type { OutgoingHttp } from "./channel";
import { requireEnv } from "./channel";
import type { NotifierEnv } from "./env";

/** Twilio caps a message body at 1600 characters. */
export const TWILIO_MAX_BODY = 1600;

/** A Twilio Messages API call (SMS and WhatsApp differ only in the `whatsapp:` address prefix). */
export function twilioMessage(env: NotifierEnv, kind: string, message: { to: string; from: string; body: string }): OutgoingHttp {
  const sid = requireEnv(env, "TWILIO_ACCOUNT_SID", kind);
  const token = requireEnv(env, "TWILIO_AUTH_TOKEN", kind);
  return {
    transport: "http",
    method: "POST",
    url: `${env.TWILIO_API_URL}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
    headers: {
      authorization: "Basic " + Buffer.from(`${sid}:${token}`).toString("base64"),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ To: message.to, From: message.from, Body: message.body }).toString(),
  };
}
