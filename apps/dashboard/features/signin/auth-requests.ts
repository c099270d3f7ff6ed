// Requests to the dashboard's own Auth.js handlers without a Next server, as a browser would send them.
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { startMailApi } from "@vigil/testing";
import { NextRequest } from "next/server";
import { afterAll, beforeAll } from "vitest";

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

/**
 * The dashboard's Auth.js handlers for a whole test file, on a database of their own and mailing through a mail
 * API double: started in beforeAll (with `env` added to the sign-in environment), stopped in afterAll. Read its
 * fields inside hooks and tests.
 */
export function authHandlersFixture(secret: string, env: Record<string, string> = {}) {
  const auth = {} as { db: TestDatabase; mail: Awaited<ReturnType<typeof startMailApi>>; handlers: Handlers };
  beforeAll(async () => {
    auth.db = await startTestDatabase();
    auth.mail = await startMailApi();
    Object.assign(process.env, {
      DATABASE_URL: auth.db.url,
      AUTH_SECRET: secret,
      AUTH_URL: AUTH_BASE,
      EMAIL_PROVIDER_API_URL: auth.mail.url,
      EMAIL_PROVIDER_API_KEY: "re_test",
      EMAIL_FROM: "Vigil <signin@example.com>",
      ...env,
      LOG_LEVEL: "silent",
    });
    ({ handlers: auth.handlers } = await import("../../auth"));
  });
  afterAll(async () => {
    await auth.mail?.close();
    await auth.db?.close();
  });
  return auth;
}
