import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedTwilioMessage, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 201, body: "{}" }, () => ({ kind: "whatsapp", config: { phone: "+14155550123" } }));

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error sends a Twilio WhatsApp message between whatsapp: addresses",
    expected: expectedTwilioMessage(
      "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%94%B4+API+health+is+down%0AStatus%3A+error%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+503%0ALatency%3A+1532+ms%0AError%3A+expected+status+200%2C+got+503%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "degraded",
    name: "degraded sends the slow latency on WhatsApp",
    expected: expectedTwilioMessage(
      "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%9F%A0+API+health+is+degraded%0AStatus%3A+degraded%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+2450+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "recovered",
    name: "a recovery sends the status code and latency on WhatsApp",
    expected: expectedTwilioMessage(
      "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%9F%A2+API+health+has+recovered%0AStatus%3A+recovered%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+87+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "test",
    name: "a test sends the monitor's name, URL and time on WhatsApp",
    expected: expectedTwilioMessage(
      "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%94%94+Test+notification+for+API+health%0AStatus%3A+test%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
];

describe("whatsapp channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("whatsapp sender", () => {
  it("without TWILIO_WHATSAPP_FROM the SMS sender TWILIO_FROM is used", async () => {
    const env = testEnv(server.url);
    delete env.TWILIO_WHATSAPP_FROM;
    await notify({ kind: "whatsapp", config: { phone: "+14155550123" } }, TEST_EVENTS.test, env, { now: TEST_NOW });
    expect(new URLSearchParams(server.requests.at(-1)!.body).get("From")).toBe("whatsapp:+15005550006");
  });
});
