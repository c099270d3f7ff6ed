// The real client address of a request: the socket's (stamped before Next sees the request: installClientStamp, from lib/fast-path.ts),
// or (only when the socket is a proxy the operator named in TRUSTED_PROXIES) the nearest X-Forwarded-For hop
// that is not such a proxy.
import { stampedClient } from "@vigil/rate-limit";

/** The client address: `unknown` only when the socket address was not stamped (never in a running site). */
export const clientAddress = (h: Pick<Headers, "get">, proxies: readonly string[]): string => stampedClient(h, proxies) ?? "unknown";
