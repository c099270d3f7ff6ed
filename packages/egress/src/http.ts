import type { LookupAddress } from "node:dns";
import type { Agent as HttpAgent } from "node:http";
import { isIP, type Socket } from "node:net";
import { Agent, buildConnector } from "undici";
import { fixedLookup, resolveHost } from "./dns";
import type { EgressPolicy } from "./policy";

/**
 * Resolves `host` (an IP literal stands for itself), checks every address against `policy` and returns
 * them for the connect: the connect then uses exactly the checked addresses, so DNS cannot change its
 * answer in between. Throws EgressRefusedError, or DnsLookupError when the name does not resolve.
 */
export async function allowedAddresses(policy: EgressPolicy, host: string, port: number, signal?: AbortSignal): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const version = isIP(bare);
  const addresses = version ? [{ address: bare, family: version }] : await resolveHost(bare, signal ?? new AbortController().signal);
  await policy.assertAllowed(
    bare,
    addresses.map((a) => a.address),
    port,
  );
  return addresses;
}

const dispatchers = new WeakMap<EgressPolicy, Agent>();

/**
 * An undici dispatcher whose every connection goes through `policy`: resolve, check, then connect to
 * the checked addresses (SNI and Host stay the URL's). One per policy, so connections are reused.
 */
export function egressDispatcher(policy: EgressPolicy): Agent {
  let agent = dispatchers.get(policy);
  if (!agent) {
    const connect: buildConnector.connector = (params, callback) => {
      const port = Number(params.port) || (params.protocol === "https:" ? 443 : 80);
      allowedAddresses(policy, params.hostname, port).then(
        (addresses) => buildConnector({ lookup: fixedLookup(addresses), autoSelectFamily: addresses.length > 1 })(params, callback),
        (err: Error) => callback(err, null),
      );
    };
    agent = new Agent({ connect });
    dispatchers.set(policy, agent);
  }
  return agent;
}

type ConnectOptions = { host?: string; port?: number | string; lookup?: unknown; autoSelectFamily?: boolean };
type CreateConnection = (options: ConnectOptions, callback?: (err: Error | null, socket?: Socket) => void) => Socket | undefined;

/**
 * A node:http(s) Agent (what the OTLP exporter takes) that checks every connection against `policy`
 * the same way. `protocol` is "http:" or "https:".
 */
export async function egressHttpAgent(policy: EgressPolicy, protocol: string): Promise<HttpAgent> {
  const { Agent: Base } = protocol === "https:" ? await import("node:https") : await import("node:http");
  const agent = new Base({ keepAlive: true });
  const base = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
  const guarded: CreateConnection = (options, callback) => {
    const port = Number(options.port) || (protocol === "https:" ? 443 : 80);
    allowedAddresses(policy, options.host ?? "localhost", port).then(
      (addresses) => {
        // Without a callback: node:http's own createConnection would take it as a connect listener.
        callback?.(null, base({ ...options, lookup: fixedLookup(addresses), autoSelectFamily: addresses.length > 1 }));
      },
      (err: Error) => callback?.(err),
    );
    return undefined;
  };
  (agent as unknown as { createConnection: CreateConnection }).createConnection = guarded;
  return agent;
}
