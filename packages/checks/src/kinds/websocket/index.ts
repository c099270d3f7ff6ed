import { z } from "zod";
import { ValueAssertion } from "../../assertions/schema";
import { HeaderMap, HeaderName, isSecretHeader, keepStored, REDACTED } from "../../fields";
import { checkBase, defineCheckKind } from "../kind";

export const WebSocketCheck = z.object({
  kind: z.literal("websocket"),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Sent once the connection is open; assertions then read the first message that comes back. */
  message: z.string().optional(),
  ...checkBase,
  assertions: z.array(ValueAssertion).default([]),
});
export type WebSocketCheck = z.infer<typeof WebSocketCheck>;

const wsUrl = z
  .string()
  .url("must be a ws:// or wss:// URL")
  .refine((u) => !URL.canParse(u) || /^wss?:$/.test(new URL(u).protocol), "must be a ws:// or wss:// URL");

export const WebSocketRequest = z.object({
  url: wsUrl,
  headers: HeaderMap.default({}),
  /** More header names to treat as secrets (never shown back); authorization, cookie, *token*… always are. */
  secretHeaders: z.array(HeaderName).max(50, "must list at most 50 headers").optional(),
  message: z.string().max(65_536, "must be at most 64 KiB").optional(),
});

interface WebSocketColumns {
  url: string | null;
  headers: Record<string, string> | null;
  secretHeaders: string[] | null;
  options: Record<string, unknown> | null;
  assertions: ValueAssertion[] | null;
}

export const websocket = defineCheckKind({
  kind: "websocket",
  check: WebSocketCheck,
  input: { request: WebSocketRequest, assertions: z.array(ValueAssertion).max(20, "must have at most 20 assertions").default([]) },
  output: { request: WebSocketRequest, assertions: z.array(ValueAssertion) },
  requestKey: "message",
  exampleRequest: { url: "ws://x" },
  requestOrder: ["url", "headers", "secretHeaders", "message"],
  describe: "Opens the WebSocket (the handshake time is the latency), sends the message if any; assertions read the first message back.",
  toCheck: ({ request, assertions }) => ({
    url: request.url,
    headers: request.headers,
    ...(request.message !== undefined && { message: request.message }),
    assertions,
  }),
  toRow: (m, previous): WebSocketColumns => ({
    url: m?.request.url ?? null,
    // "***" keeps a stored header only while the URL's origin is unchanged (as for HTTP checks).
    headers: m
      ? keepStored(m.request.headers, previous?.headers, { path: "request.headers", stored: previous?.url, draft: m.request.url })
      : null,
    secretHeaders: m?.request.secretHeaders?.length ? [...new Set(m.request.secretHeaders)] : null,
    options: m?.request.message !== undefined ? { message: m.request.message } : null,
    assertions: m?.assertions ?? null,
  }),
  fromRow: (row: WebSocketColumns, reveal) => {
    const marked = row.secretHeaders ?? [];
    const headers = Object.fromEntries(
      Object.entries(row.headers ?? {}).map(([k, v]) => [k, !reveal && isSecretHeader(k, marked) ? REDACTED : v]),
    );
    const message = row.options?.message;
    return {
      request: {
        url: row.url ?? "",
        headers,
        ...(marked.length ? { secretHeaders: marked } : {}),
        ...(typeof message === "string" && { message }),
      },
      assertions: row.assertions ?? [],
    };
  },
  target: (row) => row.url ?? "",
  attributes: (check) => {
    const u = new URL(check.url);
    if (u.username) u.username = "REDACTED";
    if (u.password) u.password = "REDACTED";
    return {
      "url.full": u.toString(),
      "url.scheme": u.protocol.replace(":", ""),
      "server.address": u.hostname.replace(/^\[(.*)\]$/, "$1"),
      "server.port": Number(u.port || (u.protocol === "wss:" ? 443 : 80)),
    };
  },
});
