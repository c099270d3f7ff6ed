// The real client address of a request: the socket's, or (only when the socket is a proxy the operator
// named in TRUSTED_PROXIES) the last address in X-Forwarded-For that is not such a proxy.
import type { IncomingMessage } from "node:http";
import { clientAddress as sharedClientAddress } from "@vigil/rate-limit";

/** Set from the socket on every request before Next sees it (lib/fast-path.ts); a client-sent value is overwritten. */
export const CLIENT_HEADER = "x-vigil-client";

export function stampClientAddress(req: IncomingMessage) {
  req.headers[CLIENT_HEADER] = req.socket.remoteAddress ?? "";
}

/** The client address: `unknown` only when the socket address was not stamped (never in a running site). */
export function clientAddress(h: Pick<Headers, "get">, proxies: readonly string[]): string {
  return sharedClientAddress(h, h.get(CLIENT_HEADER) || undefined, proxies) ?? "unknown";
}
