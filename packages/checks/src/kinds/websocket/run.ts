import type { LookupAddress } from "node:dns";
import { allowedAddresses, EgressPolicy, fixedLookup } from "@vigil/egress";
import WebSocket from "ws";
import { AttemptBudget, type AttemptOptions } from "../../budget";
import { formatTarget } from "../../dns";
import { describeConnectError } from "../../net-errors";
import { errorResult } from "../../result";
import type { CheckResult } from "../../schema";
import { judge } from "../judge";
import type { WebSocketCheck } from "./index";

const MAX_MESSAGE_BYTES = 1024 * 1024;

type Message = { ok: true; text: string } | { ok: false; error: string };
type Opened = { ok: true; socket: WebSocket; handshakeMs: number; first: Promise<Message> } | { ok: false; error: string };

function firstMessage(socket: WebSocket, signal: AbortSignal): Promise<Message> {
  return new Promise((resolve) => {
    const finish = (o: Message) => {
      signal.removeEventListener("abort", onAbort);
      resolve(o);
    };
    const onAbort = () => finish({ ok: false, error: "" });
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("message", (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      finish({ ok: true, text: isBinary ? buf.toString("base64") : buf.toString("utf8") });
    });
    socket.once("close", (code) => finish({ ok: false, error: `websocket: closed by the server (code ${code}) before its first message` }));
    socket.once("error", (err) => finish({ ok: false, error: `websocket: ${err.message}` }));
  });
}

function open(def: WebSocketCheck, addresses: LookupAddress[], target: string, signal: AbortSignal): Promise<Opened> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new WebSocket(def.url, {
      headers: def.headers,
      // The connect uses exactly the addresses egress checked; the Host header and TLS name stay the URL's.
      lookup: fixedLookup(addresses),
      followRedirects: false,
      maxPayload: MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
    });
    // Listening from the start: a server may greet in the same packet that completes the handshake.
    const first = firstMessage(socket, signal);
    first.catch(() => {});
    const finish = (o: Opened) => {
      signal.removeEventListener("abort", onAbort);
      if (!o.ok) socket.terminate();
      resolve(o);
    };
    const onAbort = () => finish({ ok: false, error: "" });
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("open", () => finish({ ok: true, socket, handshakeMs: performance.now() - started, first }));
    socket.once("unexpected-response", (_req, res) => {
      finish({ ok: false, error: `websocket: handshake refused with HTTP ${res.statusCode} by ${target}` });
      res.resume();
    });
    socket.once("error", (err) => finish({ ok: false, error: `websocket: ${describeConnectError(err, target)}` }));
  });
}

/** One attempt at a WebSocket check: handshake (its time is the latency), then optionally send and read one message. */
export async function runWebSocketCheck(def: WebSocketCheck, opts: AttemptOptions = {}): Promise<CheckResult> {
  const budget = new AttemptBudget(opts.timeoutMs ?? def.timeoutMs, opts.signal);
  const u = new URL(def.url);
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(u.port || (u.protocol === "wss:" ? 443 : 80));
  const target = formatTarget(host, port);
  const fail = (message: string) => errorResult(message, budget.elapsed(), { total: budget.elapsed() });
  let socket: WebSocket | undefined;
  try {
    let addresses: LookupAddress[];
    try {
      addresses = await allowedAddresses(opts.egress ?? EgressPolicy.none, host, port, budget.signal);
    } catch (err) {
      return fail(budget.stopMessage(`websocket: connection to ${target}`) ?? `websocket: ${describeConnectError(err, target)}`);
    }
    const opened = await open(def, addresses, target, budget.signal);
    if (!opened.ok) return fail(budget.stopMessage(`websocket: handshake with ${target}`) ?? opened.error);
    socket = opened.socket;
    let value: string | undefined;
    // Only assertions on the reply wait for one; a message alone is sent and the check ends there.
    const reply = def.assertions.some((a) => a.kind !== "latency") ? opened.first : undefined;
    if (def.message !== undefined) socket.send(def.message);
    if (reply) {
      const got = await reply;
      if (!got.ok) return fail(budget.stopMessage(`websocket: waiting for the first message from ${target}`) ?? got.error);
      value = got.text;
    }
    return judge(def, {
      latencyMs: opened.handshakeMs,
      timings: { connect: opened.handshakeMs, total: budget.elapsed() },
      ...(value !== undefined && { value }),
    });
  } finally {
    socket?.terminate();
    budget.dispose();
  }
}
