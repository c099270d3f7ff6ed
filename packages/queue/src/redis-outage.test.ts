import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRedis, logRedisOutages, optionalRedisRetry, whenReady } from "./index";

/** A loopback port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function collectingLog() {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    warn: (_: object, message: string) => lines.push({ level: "warn", message }),
    info: (_: object, message: string) => lines.push({ level: "info", message }),
  };
}

const opened: ReturnType<typeof createRedis>[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.disconnect();
});

describe("a Redis the service can run without", () => {
  it("an unreachable Redis logs one warning, not one per retry, while the retries back off", async () => {
    const log = collectingLog();
    let attempts = 0;
    const redis = createRedis(`redis://127.0.0.1:${await closedPort()}`, "producer", {
      retryStrategy: (times) => {
        attempts = times;
        return optionalRedisRetry(times);
      },
    });
    opened.push(redis);
    logRedisOutages(redis, log);
    await new Promise((r) => setTimeout(r, 3500)); // retries after 1 s and 2 s
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(log.lines).toEqual([{ level: "warn", message: "redis unreachable; retrying with backoff" }]);
  });

  it("backs off from 1 s to a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(optionalRedisRetry)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it("a reachable Redis logs nothing", async () => {
    const log = collectingLog();
    const redis = createRedis("redis://127.0.0.1:6379", "producer", { retryStrategy: optionalRedisRetry });
    opened.push(redis);
    logRedisOutages(redis, log);
    expect(await whenReady(redis, 5000)).toBe(true);
    expect(await redis.ping()).toBe("PONG");
    expect(log.lines).toEqual([]);
  });

  it("a connection just opened is used once it is ready, not refused; one to an absent Redis gives up after the bound", async () => {
    // Without the wait a producer refuses its first command (no offline queue): what a first Check now met.
    const hasty = createRedis("redis://127.0.0.1:6379", "producer");
    opened.push(hasty);
    await expect(hasty.ping()).rejects.toThrow(/writeable|offline/i);
    const redis = createRedis("redis://127.0.0.1:6379", "producer");
    opened.push(redis);
    expect(await whenReady(redis, 5000)).toBe(true);
    expect(await redis.ping()).toBe("PONG");
    expect(await whenReady(redis, 5000)).toBe(true);

    const absent = createRedis(`redis://127.0.0.1:${await closedPort()}`, "producer", { retryStrategy: optionalRedisRetry });
    opened.push(absent);
    absent.on("error", () => {});
    expect(await whenReady(absent, 300)).toBe(false);
    expect(absent.listenerCount("ready")).toBe(0);
  });
});
