import { z } from "zod";
import { defineChannel, NotifierSetupError } from "../channel";
import { phone } from "../fields";
import { plainText, STATUS_EMOJI, truncate } from "../format";
import { TWILIO_MAX_BODY, twilioMessage } from "../twilio";

export const whatsapp = defineChannel({
  kind: "whatsapp",
  config: z.object({ phone: phone() }),
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
