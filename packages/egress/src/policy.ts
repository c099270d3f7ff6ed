import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { formatTarget } from "./dns";

/**
 * A target the tenant side (checks, channels, OTLP export) must never send bytes to. `port` undefined
 * means every port. `reason` completes "target host:port is …; refused".
 */
export interface DenyRule {
  /** Addresses or CIDR blocks, e.g. "127.0.0.0/8", "::1", "[fd00::/8]". */
  addresses: readonly string[];
  port?: number;
  reason: string;
}

/** One of the instance's own endpoints, e.g. `{ name: "database", url: DATABASE_URL }`. */
export interface InstanceEndpoint {
  name: string;
  url: string;
}

export class EgressRefusedError extends Error {
  readonly code = "EGRESS_REFUSED";
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`target ${target} is ${reason}; refused`);
    this.name = "EgressRefusedError";
  }
}

/** An entry of a deny list (PROBE_DENY) that does not parse; the message names the entry and the rule. */
export class DenyListError extends Error {}

const DEFAULT_PORTS: Record<string, number> = {
  "http:": 80,
  "https:": 443,
  "ws:": 80,
  "wss:": 443,
  "libsql:": 443,
  "redis:": 6379,
  "rediss:": 6379,
};

/** Reaching any of these on this machine reaches a service that listens on loopback (0.0.0.0 and :: do on Linux). */
const LOOPBACK = ["127.0.0.0/8", "::1", "0.0.0.0", "::"];

/** Refresh resolved instance hosts this often: a container's address can change on restart. */
const REFRESH_MS = 60_000;

type Block = { address: string; prefix: number; family: "ipv4" | "ipv6" };

/** "10.0.0.0/8", "::1", "[fd00::/8]" → a block, or a sentence saying what is wrong. */
function parseBlock(text: string): Block | string {
  const bare = text.replace(/^\[(.*)\]$/, "$1");
  const [address = "", prefixText, extra] = bare.split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return "must be an IP address or CIDR block such as 10.0.0.0/8 or [fd00::/8]";
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= max)) return `prefix must be 0-${max} for IPv${version}`;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** Addresses and CIDR blocks ("10.0.0.0/8", "::1", "[fd00::/8]") as one BlockList; throws DenyListError naming a bad entry. */
export function blockList(addresses: readonly string[]): BlockList {
  const list = new BlockList();
  for (const a of addresses) {
    const block = parseBlock(a);
    if (typeof block === "string") throw new DenyListError(`"${a}": ${block}`);
    list.addSubnet(block.address, block.prefix, block.family);
  }
  return list;
}

/** A comma-separated list, each non-empty entry (trimmed) parsed by `parse`. */
const entries = <T>(text: string, parse: (entry: string) => T): T[] =>
  text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .map(parse);

/**
 * Parses a deny list as operators write it: `cidr:port` entries separated by commas, e.g.
 * `10.0.0.0/8:5432,192.168.1.10:6379,[fd00::/8]:8123`. IPv6 goes in brackets; an entry without a port
 * denies every port of those addresses.
 */
export function parseDenyList(text: string): DenyRule[] {
  return entries(text, (entry) => {
    const m = /^(\[[^\]]*\](?:\/\d+)?|[^:[\]]+)(?::([^:]*))?$/.exec(entry);
    if (!m) throw new DenyListError(`"${entry}": write cidr:port (IPv6 in brackets), e.g. 10.0.0.0/8:5432 or [fd00::/8]:6379`);
    const cidr = m[1]!.replace(/^\[([^\]]*)\](\/\d+)?$/, "$1$2");
    const block = parseBlock(cidr);
    if (typeof block === "string") throw new DenyListError(`"${entry}": ${block}`);
    const port = m[2] === undefined ? undefined : /^\d{1,5}$/.test(m[2]) ? Number(m[2]) : Number.NaN;
    if (port !== undefined && !(port >= 1 && port <= 65535)) throw new DenyListError(`"${entry}": the port must be 1-65535`);
    return { addresses: [cidr], ...(port !== undefined && { port }), reason: `on this location's deny list (PROBE_DENY ${entry})` };
  });
}

/**
 * Parses `name=url` pairs separated by commas (PROBE_INSTANCE_URLS), e.g.
 * `database=http://127.0.0.1:8080,redis=redis://127.0.0.1:6379`.
 */
export function parseInstanceUrls(text: string): InstanceEndpoint[] {
  return entries(text, (entry) => {
    const m = /^([a-z][a-z0-9-]*)=(.+)$/i.exec(entry);
    if (!m) throw new DenyListError(`"${entry}": write name=url, e.g. database=http://127.0.0.1:8080`);
    const endpoint = { name: m[1]!, url: m[2]! };
    endpointPort(endpoint);
    return endpoint;
  });
}

/** The instance's own URLs as every app's env names them. */
export interface InstanceUrls {
  DATABASE_URL?: string;
  REDIS_URL?: string;
  ANALYTICS_URL?: string;
}

/** The endpoints among the instance's URLs that are on the network (an embedded `file:` database is not). */
export function instanceEndpoints(env: InstanceUrls): InstanceEndpoint[] {
  const named = { database: env.DATABASE_URL, redis: env.REDIS_URL, analytics: env.ANALYTICS_URL };
  return Object.entries(named).flatMap(([name, url]) => (url && !url.startsWith("file:") ? [{ name, url }] : []));
}

function endpointPort({ name, url }: InstanceEndpoint): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DenyListError(`${name}: "${url}" is not a URL`);
  }
  const port = u.port ? Number(u.port) : DEFAULT_PORTS[u.protocol];
  if (!u.hostname || port === undefined) throw new DenyListError(`${name}: "${url}" needs a host and a port`);
  return { host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** This machine's own addresses: a service listening on all interfaces answers on each of them. */
function localAddresses(): string[] {
  // Only plain addresses: one the block list cannot take would fail the whole rule, and with it the refusal.
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address).filter((a) => isIP(a) !== 0));
}

const isLoopback = blockList(LOOPBACK);
const familyOf = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** The addresses that reach `host`; a host on this machine is reached through loopback and every local address too. */
async function reachingAddresses(host: string): Promise<string[]> {
  const resolved = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  const local = new Set(localAddresses());
  const onThisMachine = resolved.some((a) => isLoopback.check(a, familyOf(a)) || local.has(a));
  return onThisMachine ? [...new Set([...resolved, ...LOOPBACK, ...local])] : resolved;
}

/** Addresses that are not on the public internet, each with what people call it. */
const NON_PUBLIC: readonly (readonly [string, string])[] = [
  ["0.0.0.0/8", "unspecified"],
  ["::/128", "unspecified"],
  ["127.0.0.0/8", "loopback"],
  ["::1/128", "loopback"],
  ["10.0.0.0/8", "private network"],
  ["172.16.0.0/12", "private network"],
  ["192.168.0.0/16", "private network"],
  ["fc00::/7", "private network"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["169.254.0.0/16", "link-local"],
  ["fe80::/10", "link-local"],
  ["224.0.0.0/4", "multicast"],
  ["ff00::/8", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["192.0.0.0/24", "reserved"],
  ["198.18.0.0/15", "reserved"],
];
const nonPublic = NON_PUBLIC.map(([cidr, kind]) => ({ cidr, kind, list: blockList([cidr]) }));

/** What "public only" refuses: every address outside the public internet but those in `allow`. */
export interface PublicOnly {
  /** Private ranges the operator allows (e.g. SUBSCRIBER_ALLOW_PRIVATE for internal status pages). */
  allow?: readonly string[];
  /** The setting that lists them, named in the refusal so an operator knows where to allow a range. */
  setting?: string;
}

interface CompiledRule {
  list: BlockList;
  port?: number;
  reason: string;
}

const compile = (rule: DenyRule): CompiledRule => ({
  list: blockList(rule.addresses),
  ...(rule.port !== undefined && { port: rule.port }),
  reason: rule.reason,
});

/**
 * What the tenant side may not reach: the instance's own endpoints (their hosts resolved, and
 * re-resolved every minute) and fixed rules such as PROBE_DENY. Everything else, private networks and
 * loopback included, stays reachable unless the policy is "public only" (anonymous visitors' URLs).
 * Checks run on resolved addresses, right before connecting.
 */
export class EgressPolicy {
  /** Refuses nothing: for code whose targets are the operator's own settings. */
  static readonly none = new EgressPolicy([], []);

  readonly #fixed: CompiledRule[];
  readonly #instance: InstanceEndpoint[];
  readonly #publicOnly: { allow: BlockList; setting: string | undefined } | undefined;
  #resolved: CompiledRule[] = [];
  #resolvedAt = Number.NEGATIVE_INFINITY;
  #refreshing: Promise<void> | undefined;

  constructor(instance: readonly InstanceEndpoint[], rules: readonly DenyRule[], publicOnly?: PublicOnly) {
    this.#instance = [...instance];
    this.#publicOnly = publicOnly && { allow: blockList(publicOnly.allow ?? []), setting: publicOnly.setting };
    for (const e of this.#instance) endpointPort(e);
    this.#fixed = rules.map(compile);
  }

  /** The policy of an app that holds the instance's URLs: server, workflows, dashboard. */
  static forInstance(env: InstanceUrls): Promise<EgressPolicy> {
    return EgressPolicy.create({ instance: instanceEndpoints(env) });
  }

  /** Builds the rules of the instance's endpoints (resolving their hosts) and throws if a URL is unusable. */
  static async create(opts: {
    instance?: readonly InstanceEndpoint[];
    deny?: readonly DenyRule[];
    /** Refuse every non-public address too (anonymous visitors' URLs), but the ranges it allows. */
    publicOnly?: PublicOnly;
  }): Promise<EgressPolicy> {
    const policy = new EgressPolicy(opts.instance ?? [], opts.deny ?? [], opts.publicOnly);
    await policy.#rules();
    return policy;
  }

  async #refresh(): Promise<void> {
    const rules = await Promise.all(
      this.#instance.map(async (e, i) => {
        const { host, port } = endpointPort(e);
        try {
          return compile({ addresses: await reachingAddresses(host), port, reason: `this instance's ${e.name}` });
        } catch {
          // Unresolvable now: keep what it resolved to before (a restarting container), if anything.
          return this.#resolved[i] ?? compile({ addresses: [], port, reason: `this instance's ${e.name}` });
        }
      }),
    );
    this.#resolved = rules;
    this.#resolvedAt = Date.now();
  }

  async #rules(): Promise<CompiledRule[]> {
    if (this.#instance.length > 0 && Date.now() - this.#resolvedAt > REFRESH_MS) {
      this.#refreshing ??= this.#refresh().finally(() => {
        this.#refreshing = undefined;
      });
      await this.#refreshing;
    }
    return [...this.#resolved, ...this.#fixed];
  }

  /** Why `address:port` is refused, or undefined when it is allowed. */
  async refusal(address: string, port: number): Promise<string | undefined> {
    for (const rule of await this.#rules()) {
      if ((rule.port === undefined || rule.port === port) && rule.list.check(address, familyOf(address))) return rule.reason;
    }
    if (!this.#publicOnly || this.#publicOnly.allow.check(address, familyOf(address))) return undefined;
    const range = nonPublic.find((r) => r.list.check(address, familyOf(address)));
    if (!range) return undefined;
    const hint = this.#publicOnly.setting ? ` (${this.#publicOnly.setting} does not allow it)` : "";
    return `a ${range.kind} address (${range.cidr}), not a public one${hint}`;
  }

  /**
   * Throws EgressRefusedError when any address `host` resolved to is refused on `port`: a name that
   * points at the database among other addresses is refused whole.
   */
  async assertAllowed(host: string, addresses: readonly string[], port: number): Promise<void> {
    for (const address of addresses) {
      const reason = await this.refusal(address, port);
      if (reason === undefined) continue;
      const target = address === host ? formatTarget(host, port) : `${formatTarget(host, port)} (${address})`;
      throw new EgressRefusedError(target, reason);
    }
  }
}
