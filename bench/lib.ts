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
