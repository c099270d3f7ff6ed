import { show } from "../../assertions/compare";
import type { AssertionOutcome } from "../../schema";
import { parseSse, SseParser } from "./sse";

/** A JSON-RPC 2.0 ping request found in a check's body; replies must carry this id. */
export interface JsonRpcPing {
  id: string | number;
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** A check is a JSON-RPC ping check when its body is `{"jsonrpc":"2.0","id":…,"method":"ping"}`. */
export function detectJsonRpcPing(body: string | undefined): JsonRpcPing | undefined {
  if (!body?.includes("jsonrpc")) return undefined;
  const parsed = tryParse(body);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const { jsonrpc, method, id } = parsed.value;
  if (jsonrpc !== "2.0" || method !== "ping" || (typeof id !== "string" && typeof id !== "number")) return undefined;
  return { id };
}

/** The spec's JSON-RPC request headers, added only where the user set none. */
export function withJsonRpcHeaders(headers: Record<string, string>): Record<string, string> {
  const names = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  return {
    ...(!names.has("content-type") && { "content-type": "application/json" }),
    ...(!names.has("accept") && { accept: "application/json, text/event-stream" }),
    ...headers,
  };
}

export const isEventStream = (contentType: string | undefined): boolean => /^\s*text\/event-stream\b/i.test(contentType ?? "");

interface Message {
  value: unknown;
  /** The message's JSON text, as the server sent it when it was a whole event or body. */
  text: string;
}

function messagesOf(value: unknown, text: string): Message[] {
  return Array.isArray(value) ? value.map((v) => ({ value: v, text: JSON.stringify(v) })) : [{ value, text }];
}

function hasId(value: unknown, id: JsonRpcPing["id"]): boolean {
  return messagesOf(value, "").some((m) => isObject(m.value) && m.value.id === id);
}

/**
 * For an event-stream reply: a chunk watcher that says when the reply with our id has arrived, so a server
 * that keeps the stream open is judged at once instead of at the timeout.
 */
export function replyArrived(ping: JsonRpcPing, contentType: string | undefined): ((chunk: Uint8Array) => boolean) | undefined {
  if (!isEventStream(contentType)) return undefined;
  const decoder = new TextDecoder();
  const sse = new SseParser();
  return (chunk) =>
    sse.push(decoder.decode(chunk, { stream: true })).some((data) => {
      const parsed = tryParse(data);
      return parsed.ok && hasId(parsed.value, ping.id);
    });
}

function describeError(error: unknown): string {
  if (!isObject(error)) return show(error);
  return [error.code, error.message].filter((x) => x !== undefined).join(" ") || show(error);
}

export interface JsonRpcReply {
  /** The reply message assertions should see (instead of the raw body or SSE framing), when there is one. */
  text: string | undefined;
  outcome: AssertionOutcome;
}

const fail = (message: string, text?: string): JsonRpcReply => ({
  text,
  outcome: { kind: "jsonrpc", ok: false, message: `jsonrpc: ${message}` },
});

/** Finds the reply to our ping in a JSON or event-stream body and checks it is a JSON-RPC 2.0 result. */
export function readJsonRpcReply(ping: JsonRpcPing, contentType: string | undefined, body: string): JsonRpcReply {
  let messages: Message[] = [];
  if (isEventStream(contentType)) {
    for (const data of parseSse(body)) {
      const parsed = tryParse(data);
      if (parsed.ok) messages.push(...messagesOf(parsed.value, data));
    }
    if (messages.length === 0) return fail("the event stream held no JSON message");
  } else {
    const parsed = tryParse(body);
    if (!parsed.ok) return fail(`reply is not JSON (${parsed.error}), starts with ${show(body.slice(0, 60))}`);
    messages = messagesOf(parsed.value, body);
  }

  const reply = messages.find((m) => isObject(m.value) && m.value.id === ping.id);
  if (!reply) {
    // A server that could not parse our request answers with an error and id null: report that error.
    const withError = messages.find((m) => isObject(m.value) && "error" in m.value);
    if (withError && isObject(withError.value)) return fail(`error ${describeError(withError.value.error)}`, withError.text);
    const ids = messages.map((m) => (isObject(m.value) && "id" in m.value ? show(m.value.id) : "none"));
    return fail(`expected a reply with id ${show(ping.id)}, got id ${ids.join(", ")}`, messages[0]?.text);
  }
  const message = reply.value as JsonObject;
  if (message.jsonrpc !== "2.0") return fail(`expected jsonrpc "2.0", got ${show(message.jsonrpc)}`, reply.text);
  if ("error" in message) return fail(`error ${describeError(message.error)}`, reply.text);
  if (!("result" in message)) return fail("reply has neither result nor error", reply.text);
  return { text: reply.text, outcome: { kind: "jsonrpc", ok: true, message: `jsonrpc: reply with id ${show(ping.id)} has a result` } };
}
