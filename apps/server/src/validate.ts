import { zValidator } from "@hono/zod-validator";
import { toIssues } from "@vigil/api-contract";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { z } from "zod";
import { errorBody } from "./errors";

const kindOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;

/**
 * A JSON body is read as a whole before any field: it must be sent as JSON and be an object, and
 * the error says so ("body must be a JSON object (got an array)") instead of naming a field.
 */
const jsonObjectBody: MiddlewareHandler = async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    return c.json(
      errorBody("unsupported_media_type", `${c.req.method} ${c.req.path}: the body must be JSON sent with Content-Type: application/json`),
      415,
    );
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json(errorBody("bad_request", "the body is not valid JSON"), 400);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return c.json(
      errorBody("invalid_input", `the body must be a JSON object (got ${kindOf(body)})`, {
        issues: [{ path: "", message: `must be a JSON object (got ${kindOf(body)})` }],
      }),
      400,
    );
  }
  await next();
};

/** "monitor: url must be a URL"; a union's message already names its field ("kind must be http or tcp"). */
function messageOf(issue: { path: string; message: string }, what: string): string {
  const last = issue.path.split(".").at(-1) ?? "";
  if (last && issue.message.startsWith(`${last} `)) return `${issue.path}${issue.message.slice(last.length)}`;
  return `${what}: ${issue.path || "(body)"} ${issue.message}`;
}

/** zValidator answering with our error body; `what` prefixes the message ("monitor", "results"…). */
export const valid = <T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S, what: string) => {
  const validator = zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issues = toIssues(result.error as unknown as z.ZodError);
      const first = issues[0];
      return c.json(errorBody("invalid_input", first ? messageOf(first, what) : `invalid ${what}`, { issues }), 400);
    }
  });
  if (target !== "json") return validator;
  const both: MiddlewareHandler = async (c, next) => {
    // The validator answers a bad body itself: its response must reach the client, not be dropped here.
    let refused: Response | undefined;
    const early = await jsonObjectBody(c, async () => {
      refused = (await validator(c, next)) ?? undefined;
    });
    return early ?? refused;
  };
  return both as typeof validator;
};
