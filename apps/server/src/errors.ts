import { ConflictError, NotFoundError, ValidationError } from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import type { Logger } from "@vigil/service";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const errorBody = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { code, message, ...extra } });

/** Maps domain errors to the API's error body; anything unexpected is logged and answered 500. */
export function toErrorResponse(err: unknown, c: Context, logger: Logger) {
  if (err instanceof ValidationError) return c.json(errorBody("invalid_input", err.message, { issues: err.issues }), 400);
  if (err instanceof LimitExceededError) {
    const { code, message, ...rest } = err.violation;
    return c.json(errorBody(code, message, rest), 403);
  }
  if (err instanceof NotFoundError) return c.json(errorBody("not_found", err.message), 404);
  if (err instanceof ConflictError) return c.json(errorBody("conflict", err.message), 409);
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const code = status === 413 ? "body_too_large" : status === 401 ? "unauthorized" : "bad_request";
    return c.json(errorBody(code, err.message || "bad request"), status);
  }
  logger.error({ err, path: c.req.path, method: c.req.method }, "unhandled error");
  return c.json(errorBody("internal", "internal error"), 500);
}
