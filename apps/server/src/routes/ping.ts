// Public ping endpoints for heartbeat monitors. Audience: anyone holding a heartbeat's token, or the workspace's
// ping key with an entry key (each is the secret).
// Unknown, paused and deleted tokens get the same 404; a burst per token is rate-limited before it is stored.
import type { IncomingMessage } from "node:http";
import {
  heartbeatBySlug,
  MAX_PING_BODY_BYTES,
  PING_KEY_RE,
  PING_TOKEN_RE,
  type Ping,
  type PingSignal,
  RATE_LIMITS,
  sha256,
} from "@vigil/core";
import { LimitExceededError } from "@vigil/limits";
import { clientAddress, clientKey, RateLimitedError } from "@vigil/rate-limit";
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

/**
 * Clients past their budget of unknown tokens, and until when: their pings are refused before any lookup.
 * The count itself is the shared limiter's; this only spares the database while a client is refused.
 */
function refusedClients() {
  const until = new Map<string, { atMs: number; err: RateLimitedError }>();
  return {
    get(key: string, nowMs: number): RateLimitedError | undefined {
      const hit = until.get(key);
      if (!hit) return undefined;
      if (hit.atMs > nowMs) return new RateLimitedError(hit.err.rule, Math.max(1, Math.ceil((hit.atMs - nowMs) / 1000)));
      until.delete(key);
      return undefined;
    },
    set(key: string, err: RateLimitedError, nowMs: number) {
      if (until.size > 10_000) for (const [k, v] of until) if (v.atMs <= nowMs) until.delete(k);
      until.set(key, { atMs: nowMs + err.retryAfterS * 1000, err });
    },
  };
}

const tooMany = (c: Context, err: RateLimitedError) => c.body(`${err.message}\n`, 429, { ...TEXT, "retry-after": String(err.retryAfterS) });

export function pingRoutes(deps: ServerDeps, trustedProxies: readonly string[]) {
  const ping = new Hono();
  const refused = refusedClients();
  const notFound = (c: Context) => c.body("not found\n", 404, TEXT);
  /** An unknown token counts against the client; past its budget it is refused (429) instead of told 404. */
  const unknown = async (c: Context, client: string | null) => {
    if (client === null) return notFound(c);
    try {
      await deps.limiter.take(RATE_LIMITS.unknownPingPerClient, client);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      refused.set(client, err, Date.now());
      return tooMany(c, err);
    }
    return notFound(c);
  };
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
    // `/<token>[/<signal>]`, or by name: `/<ping key>/<entry key>[/<signal>]` (the two key lengths differ).
    const first = c.req.param("a") ?? "";
    const byName = PING_KEY_RE.test(first);
    const slug = byName ? c.req.param("b") : undefined;
    const signal = signalOf(byName ? c.req.param("c") : c.req.param("b"));
    if (!byName && c.req.param("c") !== undefined) return notFound(c);
    // Read the body before answering, whatever the answer: the client's upload never meets a closed socket.
    const body = c.req.method === "POST" ? await bodyExcerpt(c.req.raw) : null;
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
    const sourceIp = clientAddress(c.req.raw.headers, socket, trustedProxies);
    const client = sourceIp === null ? null : clientKey(sourceIp);
    const refusal = client === null ? undefined : refused.get(client, Date.now());
    if (refusal) return tooMany(c, refusal);
    if (!signal || !(byName ? slug : PING_TOKEN_RE.test(first))) return unknown(c, client);
    try {
      // Keyed by a hash: Redis never holds a usable token or ping key.
      await deps.limiter.take(RATE_LIMITS.heartbeatPing, sha256(byName ? `${first}/${slug}` : first));
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      return tooMany(c, err);
    }
    let to: Ping["to"] = { token: first };
    if (byName) {
      const create = c.req.query("create") === "1";
      let monitorId: number | null;
      try {
        monitorId = await heartbeatBySlug(deps.db, first, slug!, create);
      } catch (err) {
        // Auto-creation within the workspace's limits: past them the job learns why, nothing is made.
        if (err instanceof LimitExceededError) return c.body(`${err.message}\n`, 403, TEXT);
        throw err;
      }
      if (monitorId === null) return unknown(c, client);
      to = { monitorId };
    }
    const stored = await deps.pingWriter.record({
      to,
      signal,
      at,
      sourceIp,
      userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
      body,
    });
    if (!stored) return unknown(c, client);
    deps.pingsStored();
    return c.req.method === "HEAD" ? c.body(null, 200, TEXT) : c.body("OK\n", 200, TEXT);
  };
  for (const path of ["/:a", "/:a/:b", "/:a/:b/:c"]) ping.on(["GET", "POST", "HEAD"], path, handle);
  // Any other shape under /ping looks like an unknown token, not like the API.
  ping.all("*", notFound);
  return ping;
}
