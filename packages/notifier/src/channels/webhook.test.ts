import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 200, body: "ok" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "webhook", config: { url: `${server.url}/hooks/vigil?team=ops`, headers: { Authorization: "Bearer hook-token" } } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 200 });
  return server.requests.at(-1);
}

describe("webhook channel", () => {
  it("an error posts the spec payload with errorMessage and the user's headers", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest(
        "/hooks/vigil?team=ops",
        [
          ["content-type", "application/json"],
          ["x-vigil-event", "error"],
          ["authorization", "Bearer hook-token"],
        ],
        {
          monitor: {
            id: 42,
            name: "API health",
            url: "https://api.example.com/health",
          },
          cronTimestamp: 1714564800000,
          status: "error",
          statusCode: 503,
          latency: 1532.4,
          errorMessage: "expected status 200, got 503",
        },
      ),
    );
  });

  it("degraded posts the spec payload with status degraded", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest(
        "/hooks/vigil?team=ops",
        [
          ["content-type", "application/json"],
          ["x-vigil-event", "degraded"],
          ["authorization", "Bearer hook-token"],
        ],
        {
          monitor: {
            id: 42,
            name: "API health",
            url: "https://api.example.com/health",
          },
          cronTimestamp: 1714564800000,
          status: "degraded",
          statusCode: 200,
          latency: 2450,
        },
      ),
    );
  });

  it("a recovery posts the spec payload with statusCode and latency", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest(
        "/hooks/vigil?team=ops",
        [
          ["content-type", "application/json"],
          ["x-vigil-event", "recovered"],
          ["authorization", "Bearer hook-token"],
        ],
        {
          monitor: {
            id: 42,
            name: "API health",
            url: "https://api.example.com/health",
          },
          cronTimestamp: 1714564800000,
          status: "recovered",
          statusCode: 200,
          latency: 87,
        },
      ),
    );
  });

  it("a test posts the spec payload as recovered, marked by the x-vigil-event header", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest(
        "/hooks/vigil?team=ops",
        [
          ["content-type", "application/json"],
          ["x-vigil-event", "test"],
          ["authorization", "Bearer hook-token"],
        ],
        {
          monitor: {
            id: 42,
            name: "API health",
            url: "https://api.example.com/health",
          },
          cronTimestamp: 1714564800000,
          status: "recovered",
        },
      ),
    );
  });
});

describe("webhook payload", () => {
  const ALLOWED = ["monitor", "cronTimestamp", "status", "statusCode", "latency", "errorMessage"];

  it.each(["error", "degraded", "recovered", "test"] as const)(
    "a %s body has only the spec's keys, with the spec's types",
    async (type) => {
      const { body } = (await deliver(type))!;
      const payload = JSON.parse(body) as Record<string, unknown>;
      for (const key of Object.keys(payload)) expect(ALLOWED).toContain(key);
      expect(Object.keys(payload.monitor as object)).toEqual(["id", "name", "url"]);
      const monitor = payload.monitor as Record<string, unknown>;
      expect([typeof monitor.id, typeof monitor.name, typeof monitor.url]).toEqual(["number", "string", "string"]);
      expect(typeof payload.cronTimestamp).toBe("number");
      expect(["degraded", "error", "recovered"]).toContain(payload.status);
      for (const key of ["statusCode", "latency"]) if (key in payload) expect(typeof payload[key]).toBe("number");
      if ("errorMessage" in payload) expect(typeof payload.errorMessage).toBe("string");
    },
  );

  it("a recovery never carries errorMessage, even when the event has one", async () => {
    const event = { ...TEST_EVENTS.recovered, errorMessage: "left over from the failure" };
    await notify({ kind: "webhook", config: { url: `${server.url}/r` } }, event, testEnv(server.url), { now: TEST_NOW });
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      monitor: { id: 42, name: "API health", url: "https://api.example.com/health" },
      cronTimestamp: 1714564800000,
      status: "recovered",
      statusCode: 200,
      latency: 87,
    });
  });
});

describe("webhook signing", () => {
  const secret = "whsec-0123456789abcdef";

  it("a secret adds a timestamp and an HMAC of timestamp.body the receiver can verify, and leaves the body unchanged", async () => {
    const unsigned = (await deliver("error"))!;
    const config = { url: `${server.url}/hooks/vigil?team=ops`, headers: { Authorization: "Bearer hook-token" }, secret };
    await notify({ kind: "webhook", config }, TEST_EVENTS.error, testEnv(server.url), { now: TEST_NOW });
    const signed = server.requests.at(-1)!;

    expect(signed.body).toBe(unsigned.body);
    const headers = new Map(signed.headers);
    expect(headers.get("x-vigil-timestamp")).toBe("1714564830");
    const expected = createHmac("sha256", secret).update(`1714564830.${signed.body}`).digest("hex");
    expect(headers.get("x-vigil-signature")).toBe(`sha256=${expected}`);
    expect(signed.headers.slice(0, 3)).toEqual(unsigned.headers.slice(0, 3));
  });

  it("a user header cannot forge the signature, and a user Content-Type replaces ours instead of doubling it", async () => {
    const config = {
      url: `${server.url}/h`,
      headers: { "Content-Type": "application/vnd.acme+json", "X-Vigil-Signature": "sha256=forged" },
      secret,
    };
    await notify({ kind: "webhook", config }, TEST_EVENTS.degraded, testEnv(server.url), { now: TEST_NOW });
    const { headers, body } = server.requests.at(-1)!;
    expect(headers.filter(([name]) => name === "content-type")).toEqual([["content-type", "application/vnd.acme+json"]]);
    const signatures = headers.filter(([name]) => name === "x-vigil-signature");
    expect(signatures).toEqual([
      ["x-vigil-signature", `sha256=${createHmac("sha256", secret).update(`1714564830.${body}`).digest("hex")}`],
    ]);
  });
});
