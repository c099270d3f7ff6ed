import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";

/** A positive integer path id; anything else is a 404 (no such resource), never a 500. */
export function idParam(c: Context, name = "id"): number {
  const raw = c.req.param(name) ?? "";
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new HTTPException(404, { message: `no ${name} "${raw}"` });
  return id;
}
