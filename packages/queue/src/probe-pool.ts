import type { ProbePool as Pool } from "@vigil/api-contract";
import type { Redis } from "ioredis";

/**
 * How long before a new membership takes effect: long enough for every member to hear of it (a wake-up,
 * then one refetch) and for probe clocks a little apart, so all of them decide each slot alike.
 */
export const POOL_LEAD_MS = 2000;
/** Plans kept: slots run are never older than one interval, a handful of changes covers them. */
const KEEP_PLANS = 16;
/** Pool keys of a location whose probes all went away are dropped after a week. */
const TTL_MS = 7 * 86_400_000;

// One script, so two servers touching one location at once never write two plans for one change.
// Time is Redis's: every server stamps plans with one clock. Members are stored comma-joined because
// Lua's cjson writes an empty list as {}.
const TOUCH = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[2] == "leave" then redis.call("ZREM", KEYS[1], ARGV[1]) else redis.call("ZADD", KEYS[1], now, ARGV[1]) end
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", "(" .. (now - tonumber(ARGV[3])))
local live = redis.call("ZRANGE", KEYS[1], 0, -1)
table.sort(live)
local joined = table.concat(live, ",")
local raw = redis.call("GET", KEYS[2])
local pool = raw and cjson.decode(raw) or { version = 0, plans = {} }
local last = pool.plans[#pool.plans]
local changed = 0
if (last == nil and joined ~= "") or (last ~= nil and last.members ~= joined) then
  changed = 1
  pool.version = math.max(pool.version + 1, now)
  if last == nil then
    pool.plans = { { from = 0, members = joined } }
  elseif last.members == "" then
    -- Nobody runs these slots: whoever comes may take them at once, no one else can run them twice.
    last.members = joined
  else
    table.insert(pool.plans, { from = now + tonumber(ARGV[4]), members = joined })
    while #pool.plans > tonumber(ARGV[5]) do table.remove(pool.plans, 1) end
  end
  raw = cjson.encode(pool)
  redis.call("SET", KEYS[2], raw, "PX", ARGV[6])
end
redis.call("PEXPIRE", KEYS[1], ARGV[6])
return { raw or "", changed }`;

interface Stored {
  version: number;
  plans: { from: number; members: string }[];
}

function decode(raw: string | null): Pool | null {
  if (!raw) return null;
  const s = JSON.parse(raw) as Stored;
  return { version: s.version, plans: s.plans.map((p) => ({ from: p.from, members: p.members ? p.members.split(",") : [] })) };
}

/**
 * The probes sharing one location's key. Each probe instance is seen on its requests (a sorted set of
 * last-seen times); one unseen for `liveMs` is dead. A change of the live set appends a plan that takes
 * effect POOL_LEAD_MS later, so members hear of it before its first slot; the probes split monitors by
 * rendezvous hashing within each plan. State lives in Redis: it outlives a server restart and is shared
 * by several servers.
 */
export class ProbePool {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Wakes the location's long-polls, so every member hears of a new plan at once. */
    private readonly wake: (locationId: number) => Promise<unknown>,
  ) {}

  private keys(locationId: number): [string, string] {
    return [`${this.prefix}:pool:${locationId}:seen`, `${this.prefix}:pool:${locationId}:plans`];
  }

  /** Marks `instance` live (or gone, for `leave`), drops the dead, and answers the location's pool. */
  async touch(locationId: number, instance: string, liveMs: number, leave = false): Promise<Pool | null> {
    const [raw, changed] = (await this.redis.eval(
      TOUCH,
      2,
      ...this.keys(locationId),
      instance,
      leave ? "leave" : "touch",
      String(liveMs),
      String(POOL_LEAD_MS),
      String(KEEP_PLANS),
      String(TTL_MS),
    )) as [string, number];
    if (changed === 1) await this.wake(locationId);
    return decode(raw);
  }

  /** The location's pool as it stands, without counting anyone as seen. */
  async read(locationId: number): Promise<Pool | null> {
    return decode(await this.redis.get(this.keys(locationId)[1]));
  }
}
