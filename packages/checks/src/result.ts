import type { CheckResult, CheckTimings } from "./schema";

const MAX_ERROR_MESSAGE = 2000; // CheckResult.errorMessage's limit

/** Microsecond precision is plenty and keeps stored numbers short. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

export const clipMessage = (message: string): string =>
  message.length <= MAX_ERROR_MESSAGE ? message : `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…`;

export function roundTimings(t: CheckTimings): CheckTimings {
  const out: CheckTimings = { total: roundMs(t.total) };
  for (const key of ["dns", "connect", "tls", "firstByte", "download"] as const) {
    const v = t[key];
    if (v !== undefined) out[key] = roundMs(v);
  }
  return out;
}

/** One attempt that failed before any assertion could run. */
export function errorResult(message: string, latencyMs: number, timings?: CheckTimings): CheckResult {
  return {
    status: "error",
    latencyMs: roundMs(latencyMs),
    errorMessage: clipMessage(message),
    attempts: 1,
    ...(timings && { timings: roundTimings(timings) }),
  };
}
