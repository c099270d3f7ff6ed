// Requests to the dashboard's own Auth.js handlers without a Next server, as a browser would send them.
import { NextRequest } from "next/server";

type Handlers = typeof import("../../auth").handlers;

export const AUTH_BASE = "http://127.0.0.1:3002";

/** Cookies of a response as `name=value` by name. */
export const cookiesOf = (res: Response) => Object.fromEntries(res.headers.getSetCookie().map((c) => [c.split("=")[0]!, c.split(";")[0]!]));

export async function callAuth(handlers: Handlers, method: "GET" | "POST", path: string, cookie: string, body?: URLSearchParams) {
  const req = new NextRequest(new URL(path, AUTH_BASE), {
    method,
    headers: { cookie, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body,
  });
  return method === "GET" ? handlers.GET(req) : handlers.POST(req);
}
