/**
 * When a failed delivery is tried again: exponential from `baseMs` (attempt n waits base·2^(n-1)), capped at
 * `maxMs`, then scaled by a jitter between 0.5 and 1 so the retries of many deliveries failing together (a
 * receiver's outage) do not arrive together. The jitter is drawn from the job id and the attempt, not
 * Math.random: the queue and the delivery log's "next retry" compute the same instant.
 */
export function retryDelay(jobId: string, attemptsMade: number, baseMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(attemptsMade - 1, 40));
  return Math.round(exp * (0.5 + 0.5 * unit(`${jobId}:${attemptsMade}`)));
}

/** FNV-1a of `s`, as a number in [0, 1). */
function unit(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

/**
 * How long an attempt keeps waiting for a late answer past the channel's timeout: three timeouts more, at
 * most 90 s. A receiver that answers in 20 s (10 s timeout) is then sent the event once; one that never
 * answers holds a delivery slot for 40 s before the next attempt.
 */
export const lateAnswerMs = (timeoutMs: number) => Math.min(3 * timeoutMs, 90_000);
