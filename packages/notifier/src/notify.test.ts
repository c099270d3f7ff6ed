import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "./notify";
import { type CaptureServer, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "./testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer((req) => (req.path === "/hang" ? "hang" : { status: 200, body: "ok" }));
});
afterAll(() => server.close());

describe("notify", () => {
  it("a stored config that no longer validates fails permanently, naming the field, and sends nothing", async () => {
    const before = server.requests.length;
    await expect(notify({ kind: "sms", config: { phone: "0155 555" } }, TEST_EVENTS.error, testEnv(server.url))).resolves.toEqual({
      ok: false,
      retryable: false,
      error: "invalid sms config: phone: must be an international number with a leading + such as +14155550123",
    });
    expect(server.requests.length).toBe(before);
  });

  it("an unknown channel kind fails permanently", async () => {
    await expect(notify({ kind: "fax", config: {} }, TEST_EVENTS.error, testEnv(server.url))).resolves.toEqual({
      ok: false,
      retryable: false,
      error: 'unknown channel kind "fax"',
    });
  });

  it("a malformed event fails permanently, naming the field", async () => {
    const event = { ...TEST_EVENTS.error, monitor: { ...TEST_EVENTS.error.monitor, id: "42" } } as unknown as typeof TEST_EVENTS.error;
    const result = await notify({ kind: "webhook", config: { url: `${server.url}/h` } }, event, testEnv(server.url));
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok ? "" : result.error).toMatch(/^invalid event: monitor\.id: /);
  });

  it("without an explicit timeout, NOTIFIER_TIMEOUT_MS bounds the wait", async () => {
    const env = testEnv(server.url, { NOTIFIER_TIMEOUT_MS: "150" });
    await expect(
      notify({ kind: "webhook", config: { url: `${server.url}/hang` } }, TEST_EVENTS.error, env, { now: TEST_NOW }),
    ).resolves.toEqual({
      ok: false,
      retryable: true,
      error: "no response within 150 ms",
    });
  });
});
