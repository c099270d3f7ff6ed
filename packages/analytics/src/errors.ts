/**
 * Analytics could not answer: the store is down, unreachable, refusing our credentials or not deployed.
 * Pages show `message` in place of charts; nothing else depends on it.
 */
export class AnalyticsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AnalyticsUnavailableError";
  }
}

// Server answers that mean "not usable right now" rather than a bug in a query.
const UNAVAILABLE_CODES: Record<string, string> = {
  "516": "refused the credentials (check ANALYTICS_USER and ANALYTICS_API_KEY)",
  "194": "refused the credentials (check ANALYTICS_USER and ANALYTICS_API_KEY)",
  "81": "has no such database yet (run pnpm analytics:deploy)",
  "60": "is missing its tables (run pnpm analytics:deploy)",
  "202": "is overloaded (too many simultaneous queries)",
  "241": "ran out of memory",
};

/**
 * The server answered with an exception (`Code: N. DB::Exception`). Checked by shape: chdb raises the same
 * error class from its own copy of the client's common package, so `instanceof` would miss it.
 */
function isServerError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === "string" && /^\d+$/.test(code); // network errors carry ECONNREFUSED etc.
}

/** Maps a client failure to AnalyticsUnavailableError when the store itself is the problem; rethrows query bugs. */
export function toAnalyticsError(err: unknown, where: string): Error {
  if (err instanceof AnalyticsUnavailableError) return err;
  if (isServerError(err)) {
    const why = UNAVAILABLE_CODES[err.code];
    return why ? new AnalyticsUnavailableError(`Analytics (ClickHouse at ${where}) ${why}`, { cause: err }) : err;
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new AnalyticsUnavailableError(`Analytics (ClickHouse at ${where}) is unreachable: ${reason}`, { cause: err });
}

/** host:port of a URL, without any credentials in it: safe for messages and logs. */
export function displayHost(url: string): string {
  try {
    const u = new URL(url);
    return u.host;
  } catch {
    return "the configured address";
  }
}
