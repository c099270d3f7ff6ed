/** Exponential backoff with full jitter between `baseMs` and `maxMs`; `reset()` after a success. */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** The pause before the next try; grows with each failure. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.baseMs * 2 ** this.failures);
    this.failures++;
    // Half fixed, half random: probes that lost the server together do not come back in lockstep.
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  get attempts(): number {
    return this.failures;
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Resolves after `ms`, or early (false) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
