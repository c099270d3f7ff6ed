import { z } from "zod";
import { defineChannel, requireEnv } from "../channel";
import { phone } from "../fields";
import { plainText, truncate } from "../format";
import { TWILIO_MAX_BODY, twilioMessage } from "../twilio";

export const sms = defineChannel({
  kind: "sms",
  config: z
    .object({
      phone: phone().meta({ title: "Phone number", description: "International format with a leading +.", examples: ["+14155550123"] }),
    })
    .meta({ title: "SMS", description: "A text message through Twilio. Needs the sms limit." }),
  secrets: [],
  build: (config, event, { env }) =>
    twilioMessage(env, "sms", {
      to: config.phone,
      from: requireEnv(env, "TWILIO_FROM", "sms"),
      // No emoji: one would switch the whole SMS to UCS-2 and more than double its segment count.
      body: truncate(`[Vigil] ${plainText(event, env)}`, TWILIO_MAX_BODY),
    }),
});
