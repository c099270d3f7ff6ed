import { EgressPolicy } from "@vigil/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "./notify";
import { type CaptureServer, type SmtpCaptureServer, startCaptureServer, startSmtpServer, TEST_EVENTS, testEnv } from "./testing";

// The capture servers stand in for the instance's database (HTTP) and Redis (the SMTP relay's port).
let database: CaptureServer;
let redis: SmtpCaptureServer;
let egress: EgressPolicy;
beforeAll(async () => {
  database = await startCaptureServer();
  redis = await startSmtpServer();
  egress = await EgressPolicy.create({
    instance: [
      { name: "database", url: database.url },
      { name: "redis", url: redis.url.replace(/^smtp:/, "redis:") },
    ],
  });
});
afterAll(async () => {
  await database.close();
  await redis.close();
});

describe("channels never reach the instance's own endpoints", () => {
  it("a webhook aimed at the database is refused for good, naming why, and the database gets no request", async () => {
    const port = new URL(database.url).port;
    const result = await notify(
      { kind: "webhook", config: { url: `http://localhost:${port}/` } },
      TEST_EVENTS.test,
      testEnv(database.url),
      {
        egress,
      },
    );
    expect(result).toEqual({
      ok: false,
      retryable: false,
      error: `target localhost:${port} (127.0.0.1) is this instance's database; refused`,
    });
    expect(database.requests).toEqual([]);
  });

  it("an ntfy server URL on the database's port through 0.0.0.0 is refused too", async () => {
    const port = new URL(database.url).port;
    const result = await notify(
      { kind: "ntfy", config: { topic: "t", server: `http://0.0.0.0:${port}` } },
      TEST_EVENTS.error,
      testEnv(database.url),
      {
        egress,
      },
    );
    expect(result).toMatchObject({ ok: false, retryable: false, error: `target 0.0.0.0:${port} is this instance's database; refused` });
    expect(database.requests).toEqual([]);
  });

  it("mail over an SMTP relay URL that points at Redis's port is refused before connecting", async () => {
    const env = testEnv(database.url, { SMTP_URL: redis.url, EMAIL_FROM: "Vigil <alerts@example.com>" });
    const result = await notify({ kind: "email", config: { email: "ops@example.com" } }, TEST_EVENTS.error, env, { egress });
    expect(result).toMatchObject({ ok: false, retryable: false, error: `target ${redis.url.slice(7)} is this instance's redis; refused` });
    expect(redis.mails).toEqual([]);
  });

  it("without the instance's endpoints in the policy the same webhook is delivered (the refusal is the policy's doing)", async () => {
    const result = await notify({ kind: "webhook", config: { url: `${database.url}/` } }, TEST_EVENTS.test, testEnv(database.url));
    expect(result).toEqual({ ok: true, status: 200 });
    database.requests.length = 0;
  });
});
