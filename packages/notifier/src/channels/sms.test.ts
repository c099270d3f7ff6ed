import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 201, body: "{}" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify({ kind: "sms", config: { phone: "+14155550123" } }, TEST_EVENTS[type], testEnv(server.url), {
    now: TEST_NOW,
  });
  expect(result).toEqual({ ok: true, status: 201 });
  return server.requests.at(-1);
}

describe("sms channel", () => {
  it("an error sends a Twilio SMS from TWILIO_FROM with basic auth", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+is+down%0AStatus%3A+error%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+503%0ALatency%3A+1532+ms%0AError%3A+expected+status+200%2C+got+503%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("degraded sends the slow latency by SMS", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+is+degraded%0AStatus%3A+degraded%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+2450+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("a recovery sends the status code and latency by SMS", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+API+health+has+recovered%0AStatus%3A+recovered%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AStatus+code%3A+200%0ALatency%3A+87+ms%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
  });

  it("a test sends the monitor's name, URL and time by SMS", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest(
        "/2010-04-01/Accounts/AC00000000000000000000000000000001/Messages.json",
        [
          ["authorization", "Basic QUMwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMTp0d2lsaW8tc2VjcmV0"],
          ["content-type", "application/x-www-form-urlencoded"],
        ],
        "To=%2B14155550123&From=%2B15005550006&Body=%5BVigil%5D+Test+notification+for+API+health%0AStatus%3A+test%0AURL%3A+https%3A%2F%2Fapi.example.com%2Fhealth%0ATime%3A+2024-05-01T12%3A00%3A00.000Z%0AOpen+in+Vigil%3A+https%3A%2F%2Fvigil.example.com%2Fmonitors%2F42",
      ),
    );
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
