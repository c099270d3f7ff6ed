// Public ping endpoints for heartbeat monitors. Audience: anyone holding a token (the token is the secret).
// Unknown, paused and deleted tokens get the same 404; a burst per token is rate-limited before it is stored.
import type { IncomingMessage } from "node:http";
import { MAX_PING_BODY_BYTES, PING_TOKEN_RE, type PingSignal, RATE_LIMITS, recordPing, sha256 } from "@vigil/core";
import { clientAddress, RateLimitedError } from "@vigil/rate-limit";
import { type Context, Hono } from "hono";
import type { ServerDeps } from "../context";

/** What a ping's body may cost to read; past it the rest is not read (the first 10 kB are kept either way). */
const MAX_DRAIN_BYTES = 10 * 1024 * 1024;
const TEXT = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

/** The first 10 kB of the body as text; the rest is read and dropped so a long log never fails the ping. */
async function bodyExcerpt(req: Request): Promise<string | null> {
  if (!req.body) return null;
  const reader = req.body.getReader();
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.byteLength;
      if (keptBytes < MAX_PING_BODY_BYTES) {
        const part = value.subarray(0, MAX_PING_BODY_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.byteLength;
      }
      if (seen > MAX_DRAIN_BYTES) break;
    }
  } catch {
    // A client that hangs up mid-body still pinged.
  } finally {
    reader.releaseLock();
  }
  if (keptBytes === 0) return null;
  // A cut in the middle of a UTF-8 sequence becomes one replacement character, not an error.
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(kept)).replaceAll("\0", "");
}

function signalOf(suffix: string | undefined): PingSignal | null {
  if (suffix === undefined) return { kind: "success" };
  if (suffix === "start") return { kind: "start" };
  if (suffix === "fail") return { kind: "fail" };
  if (!/^\d{1,3}$/.test(suffix)) return null;
  const code = Number(suffix);
  if (code > 255) return null;
  return code === 0 ? { kind: "success" } : { kind: "fail", exitCode: code };
}

export function pingRoutes(deps: ServerDeps, trustedProxies: readonly string[]) {
  const ping = new Hono();
  const notFound = (c: Context) => c.body("not found\n", 404, TEXT);
  const handle = async (c: Context) => {
    const at = Date.now();
    const inFlight = deps.pings.begin(at);
    try {
      return await answer(c, at);
    } finally {
      deps.pings.end(inFlight);
    }
  };
  const answer = async (c: Context, at: number) => {
    const token = c.req.param("token") ?? "";
    const signal = signalOf(c.req.param("signal"));
    // Read the body before answering, whatever the answer: the client's upload never meets a closed socket.
    const body = c.req.method === "POST" ? await bodyExcerpt(c.req.raw) : null;
    if (!signal || !PING_TOKEN_RE.test(token)) return notFound(c);
    try {
      // Keyed by the token's hash: Redis never holds a usable token.
      await deps.limiter.take(RATE_LIMITS.heartbeatPing, sha256(token));
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      return c.body(`${err.message}\n`, 429, { ...TEXT, "retry-after": String(err.retryAfterS) });
    }
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
    const stored = await recordPing(deps.db, {
      token,
      signal,
      at,
      sourceIp: clientAddress(c.req.raw.headers, socket, trustedProxies),
      userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
      body,
    });
    if (!stored) return notFound(c);
    return c.req.method === "HEAD" ? c.body(null, 200, TEXT) : c.body("OK\n", 200, TEXT);
  };
  for (const path of ["/:token", "/:token/:signal"]) ping.on(["GET", "POST", "HEAD"], path, handle);
  return ping;
}
