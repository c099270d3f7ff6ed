import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ProbeInstanceId, type ProbePool } from "@vigil/api-contract";

/** murmur3's finaliser: spreads consecutive inputs over all 32 bits. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Rendezvous (highest-random-weight) hashing: the member with the highest weight for the monitor owns
 * it. Every probe computes the same owner from the same member list, and when a member comes or goes
 * only the monitors it wins or held move.
 */
export function ownerOf(members: readonly string[], monitorId: number): string | undefined {
  const m = mix(monitorId ^ Math.floor(monitorId / 2 ** 32));
  let best: string | undefined;
  let bestWeight = -1;
  for (const member of members) {
    const w = mix(fnv1a(member) ^ m);
    if (w > bestWeight || (w === bestWeight && best !== undefined && member < best)) {
      best = member;
      bestWeight = w;
    }
  }
  return best;
}

/** The members in force at `slot`: the last plan starting at or before it (the oldest known, for older slots). */
export function membersAt(pool: ProbePool, slot: number): readonly string[] {
  let members = pool.plans[0]?.members ?? [];
  for (const plan of pool.plans) {
    if (plan.from > slot) break;
    members = plan.members;
  }
  return members;
}

/**
 * This probe's share of its location's monitors. A slot is decided by the plan in force at the slot's
 * time, not at the time the probe hears of a change: plans start a lead time after the change, so every
 * member knows a plan before its first slot and a monitor that moves is run by exactly one of them per slot.
 */
export class PoolShare {
  private pool: ProbePool | undefined;
  /** False from a restart on the plans kept on disk until the server answers (or cannot be reached). */
  private settled = true;

  constructor(readonly instance: string) {}

  /** A list without a pool (the server could not say) keeps the plans known so far. */
  set(pool: ProbePool | undefined): void {
    if (pool) this.pool = pool;
  }

  /**
   * Plans read from disk at a restart: meanwhile the pool may have run on without this probe, so whose a
   * slot is stays unknown until `settle()` (the server's answer, or none to be had).
   */
  restore(pool: ProbePool | undefined): void {
    this.set(pool);
    this.settled = false;
  }

  settle(): void {
    this.settled = true;
  }

  get current(): ProbePool | undefined {
    return this.pool;
  }

  /**
   * True when this probe runs `slot` of the monitor; with no pool known, a probe runs everything, as alone.
   * Undefined while restored plans await the server's word.
   */
  owns(monitorId: number, slot: number): boolean | undefined {
    if (!this.settled) return undefined;
    if (!this.pool) return true;
    return ownerOf(membersAt(this.pool, slot), monitorId) === this.instance;
  }
}

/**
 * The probe's instance id, kept in its data dir: a probe restarted after a crash is the same member and
 * takes its share back at once, instead of waiting for its old self to be declared dead.
 */
export async function instanceId(dataDir: string): Promise<string> {
  const file = join(dataDir, "instance-id");
  try {
    const parsed = ProbeInstanceId.safeParse((await readFile(file, "utf8")).trim());
    if (parsed.success) return parsed.data;
  } catch {
    // first start
  }
  const id = randomBytes(8).toString("hex");
  await writeFile(file, `${id}\n`, { mode: 0o600 });
  return id;
}
