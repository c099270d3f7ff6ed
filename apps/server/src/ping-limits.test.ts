import { request } from "node:http";
import { RATE_LIMITS } from "@vigil/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

/** A GET from a chosen loopback address, as a client on another host would send it. */
function pingFrom(localAddress: string, url: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"] }));
    });
    req.on("error", reject);
    req.end();
  });
}

const randomToken = () => Array.from({ length: 32 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(Math.random() * 36)]).join("");

describe("ping limits per client", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 120_000);
  afterAll(async () => s?.close());

  it("a client guessing tokens is refused with 429 and Retry-After, while a cron host's valid pings keep landing", {
    timeout: 60_000,
  }, async () => {
    const created = await s.call("POST", "/v1/monitors", { kind: "heartbeat", name: "cron", request: { period: "1m" } });
    const { pingUrl } = (await s.call("GET", `/v1/heartbeats/${created.body.id}`)).body;
    const valid = `${s.url}${new URL(pingUrl).pathname}`;
    const { limit } = RATE_LIMITS.unknownPingPerClient;

    const guesses: number[] = [];
    for (let i = 0; i < limit + 5; i++) guesses.push((await pingFrom("127.0.0.2", `${s.url}/ping/${randomToken()}`)).status);
    expect(guesses.slice(0, limit).every((st) => st === 404)).toBe(true);
    expect(guesses.slice(limit)).toEqual([429, 429, 429, 429, 429]);
    const refused = await pingFrom("127.0.0.2", `${s.url}/ping/${randomToken()}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // The noisy client's address is refused even with a valid token: its budget is spent for the window.
    expect((await pingFrom("127.0.0.2", valid)).status).toBe(429);

    // Another host pings its heartbeat as often as it likes within the token's own limit, and sees 404s for its own typos only.
    for (let i = 0; i < 5; i++) expect((await pingFrom("127.0.0.3", valid)).status).toBe(200);
    expect((await pingFrom("127.0.0.3", `${s.url}/ping/${randomToken()}`)).status).toBe(404);
  });
});
