import { evaluateEach } from "../assertions";
import type { PacketLossAssertion, ValueAssertion } from "../assertions/schema";
import { clipMessage, roundMs, roundTimings } from "../result";
import type { CheckResult, CheckTimings } from "../schema";

interface Measured {
  latencyMs: number;
  timings: CheckTimings;
  details?: CheckResult["details"];
  /** What the value assertions read: the first message, the first row's first value. */
  value?: string;
  packetLossPercent?: number;
}

/**
 * The result of an attempt that reached its target (kinds without an HTTP response): every failed
 * assertion makes it an error, a latency over `degradedAfterMs` degraded.
 */
export function judge(
  def: { assertions: readonly (ValueAssertion | PacketLossAssertion)[]; degradedAfterMs?: number | undefined },
  m: Measured,
): CheckResult {
  const outcomes = evaluateEach(def.assertions, {
    statusCode: 0,
    headers: {},
    body: m.value ?? "",
    bodyTruncated: false,
    latencyMs: m.latencyMs,
    jsonText: true,
    ...(m.packetLossPercent !== undefined && { packetLossPercent: m.packetLossPercent }),
  }).map((o) => ({ ...o, message: clipMessage(o.message) }));
  const failed = outcomes.filter((o) => !o.ok);
  const slow = def.degradedAfterMs !== undefined && m.latencyMs > def.degradedAfterMs;
  return {
    status: failed.length > 0 ? "error" : slow ? "degraded" : "success",
    latencyMs: roundMs(m.latencyMs),
    ...(failed.length > 0 && { errorMessage: clipMessage(failed.map((o) => o.message).join("; ")) }),
    timings: roundTimings(m.timings),
    attempts: 1,
    ...(outcomes.length > 0 && { assertions: outcomes }),
    ...(m.details && { details: m.details }),
  };
}

/** A value as assertions read it: text as is, anything else as JSON (null and undefined as ""). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value) ?? String(value);
}
