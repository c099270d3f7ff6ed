import { type LookupAddress, lookup } from "node:dns";
import type { LookupFunction } from "node:net";

export class DnsLookupError extends Error {
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`DNS lookup failed for ${host}: ${code}`);
  }
}

/** Resolves every address of `host`; stops waiting (the lookup itself cannot be cancelled) when `signal` aborts. */
export function resolveHost(host: string, signal: AbortSignal): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    lookup(host, { all: true }, (err, addresses) => {
      signal.removeEventListener("abort", onAbort);
      if (err) reject(new DnsLookupError(host, err.code ?? err.message));
      else if (addresses.length === 0) reject(new DnsLookupError(host, "ENOTFOUND"));
      else resolve(addresses);
    });
  });
}

/** A `lookup` for net/tls.connect that hands back addresses resolved earlier, so the connect time holds no DNS. */
export function fixedLookup(addresses: LookupAddress[]): LookupFunction {
  const first = addresses[0]!;
  return (_host, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
}

/** host:port as people write it, with brackets around IPv6 literals. */
export const formatTarget = (host: string, port: number | string): string => `${host.includes(":") ? `[${host}]` : host}:${port}`;
