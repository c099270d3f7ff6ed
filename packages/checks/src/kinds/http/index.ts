import { z } from "zod";
import { Assertion } from "../../assertions/schema";
import { HeaderMap, HeaderName, httpUrl, isSecretHeader, keepStored, REDACTED } from "../../fields";
import { checkBase, defineCheckKind } from "../kind";

/** What a probe runs for an HTTP monitor (a JSON-RPC `ping` body is an HTTP check too: see ./jsonrpc). */
export const HttpCheck = z.object({
  kind: z.literal("http"),
  url: z.string().url(),
  method: z.string().default("GET"),
  headers: z.record(z.string(), z.string()).default({}),
  /** Header names the user marked secret: like credentials, they never follow a redirect to another origin. */
  secretHeaders: z.array(z.string()).default([]),
  body: z.string().optional(),
  followRedirects: z.boolean().default(true),
  ...checkBase,
  assertions: z.array(Assertion).default([]),
});
export type HttpCheck = z.infer<typeof HttpCheck>;

export const HttpRequest = z.object({
  url: httpUrl("target"),
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(
      z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"], {
        error: "must be GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS",
      }),
    )
    .default("GET"),
  headers: HeaderMap.default({}),
  /** More header names to treat as secrets (never shown back); authorization, cookie, *token*… always are. */
  secretHeaders: z.array(HeaderName).max(50, "must list at most 50 headers").optional(),
  body: z.string().max(65_536, "must be at most 64 KiB").optional(),
  followRedirects: z.boolean().default(true),
});

/** Request headers with secret values (by name, or marked by the user) shown as "***". */
const redactSecretHeaders = (h: Record<string, string>, marked: readonly string[]) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, isSecretHeader(k, marked) ? REDACTED : v]));

/** `url.full` without credentials, as the semantic conventions ask. */
function redactedUrl(raw: string): string {
  const u = new URL(raw);
  if (u.username) u.username = "REDACTED";
  if (u.password) u.password = "REDACTED";
  return u.toString();
}

interface HttpColumns {
  url: string | null;
  method: string | null;
  headers: Record<string, string> | null;
  secretHeaders: string[] | null;
  body: string | null;
  followRedirects: boolean | null;
  assertions: Assertion[] | null;
}

export const http = defineCheckKind({
  kind: "http",
  check: HttpCheck,
  input: { request: HttpRequest, assertions: z.array(Assertion).max(20, "must have at most 20 assertions").default([]) },
  output: { request: HttpRequest, assertions: z.array(Assertion) },
  requestKey: "url",
  exampleRequest: { url: "http://x" },
  requestOrder: ["url", "method", "headers", "secretHeaders", "body", "followRedirects"],
  toCheck: ({ request, assertions }) => ({
    url: request.url,
    method: request.method,
    headers: request.headers,
    ...(request.secretHeaders?.length && { secretHeaders: request.secretHeaders }),
    body: request.body,
    followRedirects: request.followRedirects,
    assertions,
  }),
  toRow: (m, previous): HttpColumns => ({
    url: m?.request.url ?? null,
    method: m?.request.method ?? null,
    // "***" keeps a stored header only while the request goes to the same origin.
    headers: m
      ? keepStored(m.request.headers, previous?.headers, { path: "request.headers", stored: previous?.url, draft: m.request.url })
      : null,
    secretHeaders: m?.request.secretHeaders?.length ? [...new Set(m.request.secretHeaders)] : null,
    body: m?.request.body ?? null,
    followRedirects: m?.request.followRedirects ?? null,
    assertions: m?.assertions ?? null,
  }),
  fromRow: (row: HttpColumns, reveal) => ({
    request: {
      url: row.url ?? "",
      method: (row.method ?? "GET") as "GET",
      headers: reveal ? (row.headers ?? {}) : redactSecretHeaders(row.headers ?? {}, row.secretHeaders ?? []),
      ...(row.secretHeaders?.length ? { secretHeaders: row.secretHeaders } : {}),
      body: row.body ?? undefined,
      followRedirects: row.followRedirects ?? true,
    },
    assertions: row.assertions ?? [],
  }),
  target: (row) => row.url ?? "",
  attributes: (check, result) => {
    const u = new URL(check.url);
    return {
      "url.full": redactedUrl(check.url),
      "server.address": u.hostname.replace(/^\[(.*)\]$/, "$1"),
      "server.port": Number(u.port || (u.protocol === "https:" ? 443 : 80)),
      "http.request.method": check.method,
      ...(result.statusCode !== undefined && { "http.response.status_code": result.statusCode }),
      ...(result.certificate && { "tls.server.not_after": new Date(result.certificate.notAfter).toISOString() }),
    };
  },
});
