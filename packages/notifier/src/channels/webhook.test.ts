import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { notify } from "../notify";
import { byName, type ChannelCase, channelServer, expectedRequest, recoveryWebhookBody, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

const server = channelServer({ status: 200, body: "ok" }, (url) => ({
  kind: "webhook",
  config: { url: `${url}/hooks/vigil?team=ops`, headers: { Authorization: "Bearer hook-token" } },
}));
const { deliver } = server;

/** The spec payload posted for an event: the monitor and slot, then the fields that event carries. */
const post = (eventHeader: string, fields: Record<string, string | number>) =>
  expectedRequest(
    "/hooks/vigil?team=ops",
    [
      ["content-type", "application/json"],
      ["x-vigil-event", eventHeader],
      ["authorization", "Bearer hook-token"],
    ],
    {
      monitor: { id: 42, name: "API health", url: "https://api.example.com/health" },
      cronTimestamp: 1714564800000,
      ...fields,
    },
  );

const CASES: ChannelCase[] = [
  {
    event: "error",
    name: "an error posts the spec payload with errorMessage and the user's headers",
    expected: post("error", { status: "error", statusCode: 503, latency: 1532.4, errorMessage: "expected status 200, got 503" }),
  },
  {
    event: "degraded",
    name: "degraded posts the spec payload with status degraded",
    expected: post("degraded", { status: "degraded", statusCode: 200, latency: 2450 }),
  },
  {
    event: "recovered",
    name: "a recovery posts the spec payload with statusCode and latency",
    expected: post("recovered", { status: "recovered", statusCode: 200, latency: 87 }),
  },
  {
    event: "test",
    name: "a test posts the spec payload as recovered, marked by the x-vigil-event header",
    expected: post("test", { status: "recovered" }),
  },
];

describe("webhook channel", () => {
  it.each(byName(CASES))("%s", async (_name, { event, expected }) => {
    expect(await deliver(event)).toEqual(expected);
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
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual(
      recoveryWebhookBody({ id: 42, name: "API health", url: "https://api.example.com/health" }, 1714564800000, 87),
    );
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
