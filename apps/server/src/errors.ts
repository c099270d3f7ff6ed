import { ConflictError, NotFoundError, ValidationError } from "@vigil/core";
import { DatabaseBusyError, isDatabaseBusy } from "@vigil/db-schema";
import { LimitExceededError } from "@vigil/limits";
import { RateLimitedError } from "@vigil/rate-limit";
import type { Logger } from "@vigil/service";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const errorBody = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { code, message, ...extra } });

/** The error `code` of each HTTP status we answer: a code always matches its status. */
const STATUS_CODES: Partial<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "body_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "unavailable",
};

/** Maps domain errors to the API's error body; anything unexpected is logged and answered 500. */
export function toErrorResponse(err: unknown, c: Context, logger: Logger) {
  if (err instanceof ValidationError) return c.json(errorBody("invalid_input", err.message, { issues: err.issues }), 400);
  if (err instanceof LimitExceededError) {
    const { code, message, ...rest } = err.violation;
    return c.json(errorBody(code, message, rest), 403);
  }
  if (err instanceof RateLimitedError)
    return c.json(errorBody(err.code, err.message, { retryAfter: err.retryAfterS }), 429, { "retry-after": String(err.retryAfterS) });
  if (err instanceof NotFoundError) return c.json(errorBody("not_found", err.message), 404);
  if (err instanceof ConflictError) return c.json(errorBody("conflict", err.message), 409);
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const code = STATUS_CODES[status] ?? (status >= 500 ? "unavailable" : "bad_request");
    return c.json(errorBody(code, err.message || "bad request"), status);
  }
  if (isDatabaseUnavailable(err)) {
    logger.warn({ err: (err as Error).message, path: c.req.path }, "database unavailable");
    return c.json(errorBody("unavailable", "the database is unavailable; retry shortly"), 503, { "retry-after": "2" });
  }
  logger.error({ err, path: c.req.path, method: c.req.method }, "unhandled error");
  return c.json(errorBody("internal", "internal error"), 500);
}

/** The database is down or busy (not a bug): the caller should retry, and a probe's outbox will. */
function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseBusyError || isDatabaseBusy(err)) return true;
  for (let e = err as { message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (/fetch failed|ECONNREFUSED|ECONNRESET|socket hang up/i.test(e.message ?? "")) return true;
  }
  return false;
}
