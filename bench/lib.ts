import { createServer, type Server } from "node:net";
import type { BenchRow } from "@vigil/testing/bench-row";

// Shared shape of a benchmark: each `bench/<name>.bench.ts` default-exports a function returning a report.

export type { BenchRow };

export interface BenchReport {
  title: string;
  rows: BenchRow[];
  notes?: string[];
}

export type Bench = () => Promise<BenchReport>;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export const sortNumbers = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

/** TCP listeners on loopback that accept and close at once: targets for TCP checks. */
export async function tcpListeners(count: number): Promise<{ ports: number[]; close(): Promise<void> }> {
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const s = createServer((socket) => {
      socket.on("error", () => {});
      socket.end();
    });
    await new Promise<void>((r) => s.listen({ host: "127.0.0.1", port: 0, backlog: 4096 }, r));
    servers.push(s);
  }
  return {
    ports: servers.map((s) => (s.address() as { port: number }).port),
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => {}),
  };
}

/** The child's side of `httpClientProcess`: each request timed from its start to its last (decoded) byte. */
const CLIENT = `
process.on("message", async ({ n, url, headers }) => {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    process.send({ n, ms: performance.now() - t0, status: res.status, bytes });
  } catch (err) {
    process.send({ n, error: String(err) });
  }
});
process.send({ ready: true });
`;

/**
 * An HTTP client in its own process, as a scraper or a visitor is: what it spends reading and decoding an
 * answer is not charged to the server it measures. `get` resolves to the request's milliseconds.
 */
export async function httpClientProcess(): Promise<{ get(url: string, headers?: Record<string, string>): Promise<number>; close(): void }> {
  const { fork } = await import("node:child_process");
  const child = fork("-", [], { execArgv: ["--input-type=module", "-e", CLIENT], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, { resolve(ms: number): void; reject(err: Error): void }>();
  let n = 0;
  await new Promise<void>((resolve) =>
    child.once("message", () => {
      resolve();
    }),
  );
  child.on("message", (m: { n: number; ms?: number; status?: number; error?: string }) => {
    const w = waiting.get(m.n);
    waiting.delete(m.n);
    if (m.error !== undefined || m.status !== 200) w?.reject(new Error(m.error ?? `answered ${m.status}`));
    else w?.resolve(m.ms!);
  });
  return {
    get: (url, headers = {}) =>
      new Promise((resolve, reject) => {
        waiting.set(++n, { resolve, reject });
        child.send({ n, url, headers });
      }),
    close: () => child.kill(),
  };
}
