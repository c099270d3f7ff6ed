import { redactUrl } from "./fields";
import { type AssertionOutcome, type CheckResult, type CheckTimings, MAX_MESSAGE_CHARS } from "./schema";

/** Microsecond precision is plenty and keeps stored numbers short. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * A result's message as it may leave the probe: the credentials of any URL in it hidden (a check's URL
 * may carry a password or a token), within the length ingest accepts.
 */
export const clipMessage = (text: string): string => {
  const message = redactUrl(text);
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
};

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

/**
 * A finished attempt's status from its assertion outcomes: any failed assertion is an error unless it
 * only degrades; a slow answer degrades. The message names every failure.
 */
export function judgeOutcomes(outcomes: AssertionOutcome[], slow: boolean): Pick<CheckResult, "status" | "errorMessage" | "assertions"> {
  const clipped = outcomes.map((o) => ({ ...o, message: clipMessage(o.message) }));
  const failed = clipped.filter((o) => !o.ok);
  const hard = failed.some((o) => o.severity !== "degraded");
  return {
    status: hard ? "error" : failed.length > 0 || slow ? "degraded" : "success",
    ...(failed.length > 0 && { errorMessage: clipMessage(failed.map((o) => o.message).join("; ")) }),
    assertions: clipped,
  };
}
