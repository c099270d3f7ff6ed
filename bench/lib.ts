import { createServer, type Server } from "node:net";
// Shared shape of a benchmark: each `bench/<name>.bench.ts` default-exports a function returning a report.

export interface BenchRow {
  /** What was measured, e.g. "TCP check latency p50". */
  metric: string;
  unit: string;
  /** Our code. */
  value: number;
  /** The baseline measured in the same run, e.g. a raw net.connect. */
  baseline: number;
  baselineName: string;
  /** Optional goal text, e.g. "< 1 ms added". */
  goal?: string;
  /** Whether the goal was met, when there is one. */
  met?: boolean;
}

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
