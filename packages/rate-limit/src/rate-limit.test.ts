import { env } from "@vigil/config";
import { createRedis } from "@vigil/queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, clientKey, createRateLimiter, RateLimitedError, type RateRule } from "./index";

const rule: RateRule = { name: `test-${process.pid}-${Date.now()}`, limit: 3, windowMs: 60_000, what: "tries" };
const redis = createRedis("redis://127.0.0.1:6379", "producer");
beforeAll(() => new Promise((ready) => redis.once("ready", ready)));
afterAll(() => redis.quit());

describe("rate limits", () => {
  for (const [where, limiter] of [
    ["in Redis", createRateLimiter(redis, "vigil-test")],
    ["in the process (no Redis)", createRateLimiter(null)],
  ] as const) {
    it(`${where}: a fourth try within the window is refused with the wait until the first leaves it`, async () => {
      const t0 = 1_000_000;
      for (const dt of [0, 10_000, 20_000]) await limiter.take(rule, "k", t0 + dt);
      const refused = await limiter.take(rule, "k", t0 + 30_000).catch((e) => e);
      expect(refused).toBeInstanceOf(RateLimitedError);
      expect(refused.message).toBe("too many tries; try again in 30 s");
      await limiter.take(rule, "other", t0 + 30_000);
      // The first use leaves the window: one more goes through.
      await limiter.take(rule, "k", t0 + 60_001);
      if (where === "in Redis") expect(await redis.zcard(`vigil-test:rate:${rule.name}:k`)).toBe(3);
    });
  }

  it("a Redis that does not answer still limits, in the process", async () => {
    const dead = createRedis("redis://127.0.0.1:1", "producer", { retryStrategy: () => null });
    dead.on("error", () => {});
    const limiter = createRateLimiter(dead);
    for (let i = 0; i < 3; i++) await limiter.take(rule, "k", 5_000);
    await expect(limiter.take(rule, "k", 5_000)).rejects.toThrow(/try again in 60 s/);
    dead.disconnect();
  });
});

describe("the client address", () => {
  const h = (xff?: string) => new Headers(xff ? { "x-forwarded-for": xff } : {});
  it("a client-sent X-Forwarded-For is ignored: the socket's peer is the client", () => {
    expect(clientAddress(h("6.6.6.6"), "203.0.113.9", [])).toBe("203.0.113.9");
    expect(clientAddress(h("6.6.6.6"), "::ffff:203.0.113.9", ["10.0.0.0/8"])).toBe("203.0.113.9");
  });
  it("behind a named proxy the nearest untrusted hop is the client, whatever the client prepended", () => {
    expect(clientAddress(h("6.6.6.6, 198.51.100.7, 10.0.0.2"), "10.0.0.1", ["10.0.0.0/8"])).toBe("198.51.100.7");
    // Next hides the socket: with a proxy named, the rightmost untrusted hop; with none, unknown.
    expect(clientAddress(h("6.6.6.6, 198.51.100.7"), undefined, ["127.0.0.1"])).toBe("198.51.100.7");
    expect(clientAddress(h("6.6.6.6"), undefined, [])).toBeNull();
  });
  it("TRUSTED_PROXIES names its bad entry", () => {
    expect(env.TRUSTED_PROXIES.safeParse("10.0.0.1, proxy.local").error?.issues[0]?.message).toBe(
      "must be IP addresses or CIDR ranges, comma separated, such as 10.0.0.0/8,127.0.0.1",
    );
    expect(env.TRUSTED_PROXIES.parse(" 127.0.0.1 , ::1/128 ")).toEqual(["127.0.0.1", "::1/128"]);
  });
});

describe("the per-client key", () => {
  it("every address of one IPv6 /64 shares a client's budget; IPv4 addresses and other /64s do not", () => {
    expect(clientKey("2001:db8:1:2::1")).toBe(clientKey("2001:0db8:0001:0002:ffff:1:2:3"));
    expect(clientKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"));
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(clientKey("127.0.0.2")).toBe("127.0.0.2");
    expect(clientKey("127.0.0.3")).not.toBe(clientKey("127.0.0.2"));
  });
});
