import { z } from "zod";
import { defineChannel, NotifierSetupError } from "../channel";
import { phone } from "../fields";
import { plainText, STATUS_EMOJI, truncate } from "../format";
import { TWILIO_MAX_BODY, twilioMessage } from "../twilio";

export const whatsapp = defineChannel({
  kind: "whatsapp",
  config: z
    .object({
      phone: phone().meta({
        title: "Phone number",
        description: "The WhatsApp number, international format with a leading +.",
        examples: ["+14155550123"],
      }),
    })
    .meta({ title: "WhatsApp", description: "A WhatsApp message through Twilio. Needs the sms limit." }),
  secrets: [],
  build: (config, event, { env }) => {
    const from = env.TWILIO_WHATSAPP_FROM ?? env.TWILIO_FROM;
    if (from === undefined) throw new NotifierSetupError("TWILIO_WHATSAPP_FROM (or TWILIO_FROM) is not set; the whatsapp channel needs it");
    return twilioMessage(env, "whatsapp", {
      to: `whatsapp:${config.phone}`,
      from: `whatsapp:${from}`,
      body: truncate(`${STATUS_EMOJI[event.type]} ${plainText(event, env)}`, TWILIO_MAX_BODY),
    });
  },
});
