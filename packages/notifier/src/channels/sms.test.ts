import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedTwilioMessage, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 201, body: "{}" }, () => ({ kind: "sms", config: { phone: "+14155550123" } }));

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error sends a Twilio SMS from TWILIO_FROM with basic auth",
    expected: expectedTwilioMessage(
      "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+is+down%0AStatus%3A+error%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+503%0ALatency%3A+1532+ms%0AError%3A+expected+status+200%2C+got+503%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "degraded",
    name: "degraded sends the slow latency by SMS",
    expected: expectedTwilioMessage(
      "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+is+degraded%0AStatus%3A+degraded%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+2450+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "recovered",
    name: "a recovery sends the status code and latency by SMS",
    expected: expectedTwilioMessage(
      "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+has+recovered%0AStatus%3A+recovered%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+87+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
  {
    event: "test",
    name: "a test sends the monitor's name, URL and time by SMS",
    expected: expectedTwilioMessage(
      "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+Test+notification+for+API+health%0AStatus%3A+test%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
    ),
  },
];

describe("sms channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await server.deliver(event)).toEqual(expected);
  });
});

describe("sms limits and setup", () => {
  it("a very long message is cut to Twilio's 1600 characters", async () => {
    const event = {
      ...TEST_EVENTS.error,
      monitor: { ...TEST_EVENTS.error.monitor, url: `https://example.com/${"u".repeat(900)}` },
      errorMessage: "n".repeat(3000),
    };
    await notify({ kind: "sms", config: { phone: "+14155550123" } }, event, testEnv(server.url), { now: TEST_NOW });
    const body = new URLSearchParams(server.requests.at(-1)!.body).get("Body")!;
    expect(body).toHaveLength(1600);
    expect(body.endsWith("n…")).toBe(true);
  });

  it("without Twilio credentials nothing is sent and the failure names the variable", async () => {
    const before = server.requests.length;
    const env = testEnv(server.url);
    delete env.TWILIO_AUTH_TOKEN;
    await expect(notify({ kind: "sms", config: { phone: "+14155550123" } }, TEST_EVENTS.error, env)).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "TWILIO_AUTH_TOKEN is not set; the sms channel needs it",
    });
    expect(server.requests.length).toBe(before);
  });
});
