import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer } from "node:net";
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
  const start = async () => {
    const child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error("redis-server did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
    return child;
  };
  let child = await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
    async start() {
      child = await start();
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
