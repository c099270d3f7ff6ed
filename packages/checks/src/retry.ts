import type { CheckResult } from "./schema";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retry: number;
  timeoutMs: number;
  /** Epoch ms by which every attempt, backoff included, must be over. */
  deadline?: number;
  signal?: AbortSignal;
}

/** No attempt starts with less time than this (or the check's own timeout, if shorter). */
export const MIN_ATTEMPT_MS = 100;
const BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2000;

export const backoffMs = (retryNumber: number): number => Math.min(BACKOFF_MS * 2 ** (retryNumber - 1), MAX_BACKOFF_MS);

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (slept: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it does not end in error, up to 1 + retry times, with growing backoff between tries.
 * Each attempt gets min(timeout, time left before the deadline); an attempt that would get less than
 * MIN_ATTEMPT_MS is not started. `degraded` is an answer, not a failure, so it is not retried.
 */
export async function withRetries(policy: RetryPolicy, attempt: (timeoutMs: number) => Promise<CheckResult>): Promise<CheckResult> {
  const minimum = Math.min(MIN_ATTEMPT_MS, policy.timeoutMs);
  const timeLeft = () => (policy.deadline === undefined ? Number.POSITIVE_INFINITY : policy.deadline - Date.now());
  let last: CheckResult | undefined;
  let attempts = 0;
  for (let n = 0; n <= policy.retry; n++) {
    if (n > 0) {
      const pause = backoffMs(n);
      if (timeLeft() - pause < minimum) break;
      if (!(await sleep(pause, policy.signal))) return { ...last!, status: "error", errorMessage: "aborted", attempts };
    }
    const budget = Math.min(policy.timeoutMs, timeLeft());
    if (budget < minimum) break;
    attempts++;
    last = await attempt(Math.floor(budget));
    if (last.status !== "error" || policy.signal?.aborted) break;
  }
  if (!last) return { status: "error", latencyMs: 0, errorMessage: "no time left before the deadline to run the check", attempts: 0 };
  return { ...last, attempts };
}
