import { randomBytes } from "node:crypto";
import { connect, createServer } from "node:net";
import { Service } from "@vigil/testing/service";
import { Redis } from "ioredis";
import { ProbeBus } from "./probe-bus";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

/** A Redis of the test's own, append-only, that the test may stop and start again on the same port. */
export async function startTestRedis(dir: string) {
  const port = await freePort();
  const redis = new Service({
    name: "redis-server",
    command: "redis-server",
    args: ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
    health: () => answers(port),
    healthTimeoutMs: 10_000,
  });
  await redis.start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      await redis.stop(signal);
    },
    async start() {
      await redis.start();
    },
  };
}

/**
 * Probe buses on the shared local Redis under one fresh prefix (several stand for several servers),
 * and a `close` for afterAll.
 */
export function localProbeBuses(count = 1): { buses: ProbeBus[]; close(): void } {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const sub = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const prefix = `vigil-test-${randomBytes(4).toString("hex")}`;
  return {
    buses: Array.from({ length: count }, () => new ProbeBus(redis, sub, prefix)),
    close() {
      redis.disconnect();
      sub.disconnect();
    },
  };
}
