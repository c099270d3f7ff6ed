// Who a request came from, below the limiter (index) and the stamp Next's requests carry (client-stamp).
import { type BlockList, isIP } from "node:net";
import { blockList } from "@vigil/egress";
import { CLIENT_HEADER } from "./client-stamp";

const bare = (a: string) => {
  const s = a.trim().replace(/^\[|\]$/g, "");
  return s.startsWith("::ffff:") && isIP(s.slice(7)) === 4 ? s.slice(7) : s;
};

// TRUSTED_PROXIES is parsed once per process: one list per configured array, not one per request.
const lists = new WeakMap<readonly string[], BlockList>();
const trustedList = (trusted: readonly string[]): BlockList => {
  const known = lists.get(trusted);
  if (known) return known;
  const list = blockList(trusted);
  lists.set(trusted, list);
  return list;
};

/**
 * The address of the client a request came from: the socket's peer, unless that peer is a proxy the
 * operator named (TRUSTED_PROXIES); then the nearest X-Forwarded-For hop that is not such a proxy.
 * A client-sent X-Forwarded-For is never believed on its own. `socketAddress` undefined means the
 * runtime hides the socket (Next): the peer is then taken to be a named proxy if any is named, and
 * with none named the answer is null (unknown), since Next passes a client-sent X-Forwarded-For through.
 */
export function clientAddress(
  headers: Pick<Headers, "get">,
  socketAddress: string | undefined,
  trustedProxies: readonly string[],
): string | null {
  const list = trustedList(trustedProxies);
  const trusted = (a: string) => isIP(a) !== 0 && list.check(a, isIP(a) === 6 ? "ipv6" : "ipv4");
  const peer = socketAddress ? bare(socketAddress) : undefined;
  if (peer !== undefined && !trusted(peer)) return peer;
  if (peer === undefined && trustedProxies.length === 0) return null;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map(bare).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return null;
    if (!trusted(hop)) return hop;
  }
  return hops[0] ?? peer ?? null;
}

/**
 * The key a per-client limit counts `address` under: an IPv4 address as it is, an IPv6 one by its /64, as one
 * subscriber line or host gets a whole /64 and could otherwise take a fresh address for each try.
 */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const h = head ? head.split(":") : [];
  const t = address.includes("::") && tail ? tail.split(":") : [];
  const groups = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** The client of a request whose address was stamped, as limits count it: see clientAddress and clientKey. */
export const stampedClient = (headers: Pick<Headers, "get">, trustedProxies: readonly string[]): string | null => {
  const address = clientAddress(headers, headers.get(CLIENT_HEADER) || undefined, trustedProxies);
  return address && clientKey(address);
};
