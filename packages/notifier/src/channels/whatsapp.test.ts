import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 201, body: "{}" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify({ kind: "whatsapp", config: { phone: "+14155550123" } }, TEST_EVENTS[type], testEnv(server.url), {
    now: TEST_NOW,
  });
  expect(result).toEqual({ ok: true, status: 201 });
  return server.requests.at(-1);
}

describe("whatsapp channel", () => {
  it("an error sends a Twilio WhatsApp message between whatsapp: addresses", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%94%B4+API+health+is+down%0AStatus%3A+error%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+503%0ALatency%3A+1532+ms%0AError%3A+expected+status+200%2C+got+503%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("degraded sends the slow latency on WhatsApp", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%9F%A0+API+health+is+degraded%0AStatus%3A+degraded%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+2450+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("a recovery sends the status code and latency on WhatsApp", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%9F%A2+API+health+has+recovered%0AStatus%3A+recovered%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+87+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("a test sends the monitor's name, URL and time on WhatsApp", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=whatsapp%3A%2B14155550123&From=whatsapp%3A%2B14155238886&Body=%F0%9F%94%94+Test+notification+for+API+health%0AStatus%3A+test%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
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
