// One measured row of a benchmark report: below bench/ and the packages whose test code measures for it.
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
