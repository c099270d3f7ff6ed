// The real client address of a request: the socket's, or (only when the socket is a proxy the operator
// named in TRUSTED_PROXIES) the last address in X-Forwarded-For that is not such a proxy.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** Set from the socket on every request before Next sees it (lib/fast-path.ts); a client-sent value is overwritten. */
export const CLIENT_HEADER = "x-vigil-client";

export function stampClientAddress(req: IncomingMessage) {
  req.headers[CLIENT_HEADER] = req.socket.remoteAddress ?? "";
}

const plain = (a: string) => a.trim().replace(/^::ffff:(?=\d+\.)/i, "");

/** `cidr,…` (an address alone is one host) as a BlockList; throws naming the bad entry. */
export function parseProxies(list: string): BlockList {
  const block = new BlockList();
  for (const entry of list
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [addr = "", bits] = entry.split("/");
    const family = isIP(addr);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32))
      throw new Error(`"${entry}" is not an address or CIDR such as 10.0.0.0/8`);
    block.addSubnet(addr, prefix, family === 6 ? "ipv6" : "ipv4");
  }
  return block;
}

const trusted = (block: BlockList, a: string) => {
  const family = isIP(a);
  return family !== 0 && block.check(a, family === 6 ? "ipv6" : "ipv4");
};

/** The client address: `unknown` only when the socket address was not stamped (never in a running site). */
export function clientAddress(h: Headers, proxies: BlockList | undefined): string {
  const socket = plain(h.get(CLIENT_HEADER) ?? "");
  if (!socket) return "unknown";
  if (!proxies || !trusted(proxies, socket)) return socket;
  const hops = (h.get("x-forwarded-for") ?? "").split(",").map(plain).filter(Boolean);
  let client = socket;
  for (let i = hops.length - 1; i >= 0 && trusted(proxies, client); i--) client = hops[i]!;
  return client;
}
