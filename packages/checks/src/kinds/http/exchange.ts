import type { LookupAddress } from "node:dns";
import { isIP, connect as netConnect, type Socket } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import type { EgressPolicy } from "@vigil/egress";
import { type buildConnector, Client } from "undici";
import { describePeer } from "../../certificate";
import { allowedAddresses, fixedLookup } from "../../dns";
import type { CertificateInfo, CheckTimings } from "../../schema";

/** Where an exchange was when it stopped; names the step in timeout and error messages. */
export type Phase = "dns" | "connect" | "tls" | "response" | "body";

export interface ExchangeRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ExchangeOptions {
  signal: AbortSignal;
  maxBodyBytes: number;
  /** Every hop's resolved addresses are checked against it before the connect. */
  egress: EgressPolicy;
  /** Given the response's content-type, may return a watcher that says when enough of the body has arrived. */
  watchBody?: (contentType: string | undefined) => ((chunk: Uint8Array) => boolean) | undefined;
  /** Complete the handshake with an untrusted certificate (a `certificate valid` assertion judges it instead). */
  allowUntrusted?: boolean;
}

export type ExchangeResult =
  | {
      ok: true;
      statusCode: number;
      headers: Record<string, string | string[] | undefined>;
      body: Buffer;
      truncated: boolean;
      timings: CheckTimings;
      certificate?: CertificateInfo;
    }
  | { ok: false; error: unknown; phase: Phase; timings: CheckTimings };

/** Timestamps (performance.now) of one exchange's phases. */
class Marks {
  readonly start = performance.now();
  dnsEnd?: number;
  connectEnd?: number;
  tlsEnd?: number;
  headers?: number;

  timings(end = performance.now()): CheckTimings {
    const t: CheckTimings = { total: end - this.start };
    if (this.dnsEnd !== undefined) t.dns = this.dnsEnd - this.start;
    if (this.connectEnd !== undefined) t.connect = this.connectEnd - (this.dnsEnd ?? this.start);
    if (this.tlsEnd !== undefined && this.connectEnd !== undefined) t.tls = this.tlsEnd - this.connectEnd;
    const ready = this.tlsEnd ?? this.connectEnd;
    if (this.headers !== undefined && ready !== undefined) {
      t.firstByte = this.headers - ready;
      t.download = end - this.headers;
    }
    return t;
  }
}

const FINISHED = new Error("check finished");

const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * One HTTP request over a connection of its own (a new undici Client, closed afterwards), so every check
 * pays and measures its own DNS, connect and TLS. Never throws: failures come back with the phase they hit.
 */
export async function exchange(req: ExchangeRequest, opts: ExchangeOptions): Promise<ExchangeResult> {
  const marks = new Marks();
  let phase: Phase = "dns";
  let certificate: CertificateInfo | undefined;
  const https = req.url.protocol === "https:";

  // Our own connector (instead of undici's) so the TCP connect and the TLS handshake can be timed apart.
  const connect: buildConnector.connector = (params, callback) => {
    const port = Number(params.port) || (https ? 443 : 80);
    const open = (addresses?: LookupAddress[]) => {
      phase = "connect";
      const options = {
        host: params.hostname,
        port,
        // DNS already ran (and was timed); hand its answer over so connect time holds no lookup.
        ...(addresses && { lookup: fixedLookup(addresses), autoSelectFamily: addresses.length > 1 }),
      };
      const socket: Socket = https
        ? tlsConnect({
            ...options,
            servername: params.servername || (isIP(params.hostname) ? undefined : params.hostname),
            ALPNProtocols: ["http/1.1"],
            rejectUnauthorized: !opts.allowUntrusted,
          })
        : netConnect(options);
      socket.setNoDelay(true);
      // Until undici holds the socket, an abort (timeout) must close it here, or a hung connect would linger.
      const onAbort = () => socket.destroy();
      const handOver = (err: Error | null) => {
        socket.off("error", handOver);
        opts.signal.removeEventListener("abort", onAbort);
        if (err) callback(err, null);
        else callback(null, socket);
      };
      socket.once("error", handOver);
      opts.signal.addEventListener("abort", onAbort, { once: true });
      socket.once("connect", () => {
        marks.connectEnd = performance.now();
        phase = https ? "tls" : "response";
        if (!https) handOver(null);
      });
      if (https)
        socket.once("secureConnect", () => {
          marks.tlsEnd = performance.now();
          certificate = describePeer(socket as TLSSocket);
          phase = "response";
          handOver(null);
        });
    };
    // The addresses are checked here, at connect time, so neither the URL's spelling nor a DNS change can slip past.
    const literal = isIP(params.hostname) !== 0;
    allowedAddresses(opts.egress, params.hostname, port, opts.signal).then(
      (addresses) => {
        if (literal) return open();
        marks.dnsEnd = performance.now();
        open(addresses);
      },
      (err: Error) => callback(err, null),
    );
  };

  // One request, then the client (and its socket) is destroyed by us: closing from our side leaves TIME_WAIT
  // on the probe rather than on the target, and skips the error undici builds for a server-side close.
  let client: Client | undefined;
  try {
    client = new Client(req.url.origin, { connect, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
    const res = await client.request({
      path: `${req.url.pathname}${req.url.search}`,
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: opts.signal,
    });
    marks.headers = performance.now();
    phase = "body";
    const done = opts.watchBody?.(headerValue(res.headers["content-type"]));
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      const room = opts.maxBodyBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break; // leaving the loop destroys the body stream: the rest is never read
      }
      chunks.push(chunk);
      size += chunk.length;
      if (done?.(chunk)) break;
    }
    const end = performance.now();
    return {
      ok: true,
      statusCode: res.statusCode,
      headers: res.headers,
      body: Buffer.concat(chunks, size),
      truncated,
      timings: marks.timings(end),
      ...(certificate && { certificate }),
    };
  } catch (error) {
    return { ok: false, error, phase, timings: marks.timings() };
  } finally {
    // A shared reason: undici would otherwise build a fresh error (and its stack) on every check.
    await client?.destroy(FINISHED).catch(() => {});
  }
}
