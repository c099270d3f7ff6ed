// A pool of three probes on one location's key, one SIGKILLed mid-slot: real server, workflows, probes, sqld, Redis.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort, metricsHeaders } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Outbox } from "../../apps/private-location/src/outbox";
import { Service, type Stack, startStack, Targets, TcpTarget, until, WebhookReceiver } from "./harness";

/** Results in a stopped probe's outbox not yet acknowledged by the server (opened and closed, nothing dropped). */
async function outboxDepth(dir: string): Promise<number> {
  const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof Outbox.open>[0]["logger"];
  const outbox = await Outbox.open({ dir, maxBytes: 2 ** 30, maxAgeMs: 86_400_000, logger: quiet });
  const depth = outbox.depth;
  await outbox.close();
  return depth;
}

const INTERVAL = 30_000;
type Plan = { from: number; members: string[] };
// biome-ignore lint/suspicious/noExplicitAny: /status is read ad hoc
const status = async (p: Service): Promise<any> => (await fetch(`http://127.0.0.1:${p.env.PORT}/status`)).json();
/** The sum of a service's counter `name` since it started: every label set, or those starting with `labels`. */
async function counter(p: Service, name: string, labels?: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${p.env.PORT}/metrics`, { headers: metricsHeaders() })).text();
  const series = labels ? `\\{${labels}[^}]*\\}` : `(?:\\{[^}]*\\})?`;
  return [...text.matchAll(new RegExp(`^${name}${series} (\\d+)`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
}
/** Checks a probe has run since it started. */
const checksRun = (p: Service) => counter(p, "vigil_probe_checks_total");
/** Results a probe sent again after a failed send (a slow or busy server): the only doubles a probe makes itself. */
const resent = (p: Service) => counter(p, "vigil_probe_results_resent_total");
/** The last plan every one of `probes` knows, once they agree on one of `size` members. */
async function agreedPlan(probes: Service[], size: number): Promise<Plan | false> {
  const last = await Promise.all(probes.map(async (p) => ((await status(p)).pool.plans as Plan[] | null)?.at(-1)));
  const first = last[0];
  return !!first && first.members.length === size && last.every((p) => p?.from === first.from) && first;
}

describe("a pool of probes sharing one location", () => {
  let stack: Stack;
  let pool: Service[];
  const targets = new Targets();
  const tcp = new TcpTarget();
  const hook = new WebhookReceiver();

  beforeAll(async () => {
    await Promise.all([targets.start(), tcp.open(), hook.start()]);
    stack = await startStack(["iad"]);
    // Two more probes with the first one's key: one location, three members.
    const first = stack.probes[0]!;
    const more = await Promise.all(
      [1, 2].map(
        async (i) =>
          new Service({
            name: `probe-iad-${i}`,
            entry: first.options.entry,
            env: { ...first.env, PORT: String(await freePort()), PROBE_DATA_DIR: join(stack.dir, `pool-${i}`) },
          }),
      ),
    );
    await Promise.all(more.map((p) => p.start()));
    pool = [first, ...more];
  }, 240_000);
  afterAll(async () => {
    await Promise.all((pool ?? []).map((p) => p.kill()));
    await stack?.close();
    await Promise.all([targets.stop(), tcp.close(), hook.stop()]);
  });

  /** Results the server received from probes, by outcome. */
  const ingested = (outcome: "accepted" | "duplicate") => counter(stack.server, "vigil_ingest_rows_total", `outcome="${outcome}"`);

  it("runs every slot of every monitor exactly once when one probe is SIGKILLed mid-slot and when it comes back, hands its share over within one interval each time, and alerts nothing", {
    timeout: 150_000,
  }, async () => {
    // All three members in force before monitors exist.
    await until("a plan of three probes in force on every member", async () => (await agreedPlan(pool, 3)) && true, 30_000, 200);
    const startPlan = await agreedPlan(pool, 3);
    if (startPlan) await new Promise((r) => setTimeout(r, Math.max(0, startPlan.from - Date.now())));

    const monitors = Array.from({ length: 30 }, (_, i) =>
      i < 20
        ? { key: `tcp-${i}`, kind: "tcp", frequency: "30s", regions: ["iad"], retry: 0, request: { host: "127.0.0.1", port: tcp.port } }
        : { key: `http-${i}`, kind: "http", frequency: "30s", regions: ["iad"], retry: 0, request: { url: targets.url(`/ok-${i}`) } },
    );
    const created = await stack.api("POST", "/v1/monitors/batch", { monitors });
    expect(created.status).toBe(201);
    const ids = created.body.monitors.map((m: { id: number }) => m.id) as number[];
    const createdAt = Date.now();
    const channel = await stack.api("POST", "/v1/channels", {
      name: "hook",
      kind: "webhook",
      config: { url: `http://127.0.0.1:${hook.port}/h` },
      monitors: ids,
    });
    expect(channel.status).toBe(201);

    // Mid-period: each member has run part of its share, and the victim holds slots still to come. A member's
    // share is a handful of monitors, all of whose slots may fall late in the period: wait for one of each.
    await new Promise((r) => setTimeout(r, 15_000));
    await until(
      "every member to run a check of its share",
      async () => (await Promise.all(pool.map(checksRun))).every((n) => n > 0),
      INTERVAL,
      200,
    );
    const victim = pool[1]!;
    const victimId = (await status(victim)).pool.instance as string;
    // Its counters die with it: what it had resent before is read first.
    const resentBeforeKill = await resent(victim);
    const killedAt = Date.now();
    await victim.kill("SIGKILL");
    // What the victim had sent but not yet seen acknowledged goes again on its return (its outbox is at least
    // once): ingest drops those as doubles. They, and no slot run twice by the pool, may arrive twice.
    const unacked = await outboxDepth(join(stack.dir, "pool-1", "outbox"));
    const survivors = [pool[0]!, pool[2]!];
    const rebalance = (await until("a plan without the dead probe on both survivors", () => agreedPlan(survivors, 2), 30_000, 200)).from;
    // Members keep the latest plans on disk: one restarted while the server is away starts from them.
    await until(
      "the survivors' kept plans without the dead probe",
      async () => {
        const kept = JSON.parse(await readFile(join(stack.dir, "pool-2", "monitors.json"), "utf8")) as {
          list: { pool?: { plans: Plan[] } };
        };
        return kept.list.pool?.plans.at(-1)?.from === rebalance;
      },
      5000,
      100,
    );

    // The dead probe comes back on its data dir (same instance id) and joins again while the others hold its share.
    await victim.start();
    const joined = await until("a plan with the probe back on all three", () => agreedPlan(pool, 3), 30_000, 200);
    expect(joined.members).toContain(victimId);
    // Within one interval of the join every monitor's slot has come once, then its result is sent.
    const end = joined.from + INTERVAL;
    await new Promise((r) => setTimeout(r, end - Date.now() + 3000));
    expect(await checksRun(victim)).toBeGreaterThan(0);

    // Probes keep sending while this reads: what ingest had accepted before the rows is stored, and no more than after.
    const acceptedBefore = await ingested("accepted");
    const rows = await stack.db.$client.execute("select monitor_id, cron_timestamp from check_result order by cron_timestamp");
    const acceptedAfter = await ingested("accepted");
    const stored = new Map<number, number[]>(ids.map((id) => [id, []]));
    for (const r of rows.rows) stored.get(Number(r.monitor_id))?.push(Number(r.cron_timestamp));
    let expected = 0;
    let storedCount = 0;
    const missing: string[] = [];
    for (const id of ids) {
      const slots = stored.get(id)!;
      expect(slots.length).toBeGreaterThan(0);
      // Its slots from a second after creation (the members hear of it within that second) to the end.
      const offset = slots[0]! % INTERVAL;
      const first = Math.ceil((createdAt + 1000 - offset) / INTERVAL) * INTERVAL + offset;
      for (let slot = first; slot < end; slot += INTERVAL) {
        expected++;
        if (slots.includes(slot)) storedCount++;
        // Only the dead probe's share, from its kill (less its unsent outbox) to the plan without it, may be gone.
        else if (slot < killedAt - 2000 || slot >= rebalance) missing.push(`${id}:${slot}`);
      }
    }
    // Every monitor has stored its slot in the interval after the join, and those between the death and the join.
    for (const id of ids) expect(stored.get(id)!.some((s) => s >= joined.from && s < end)).toBe(true);
    expect(missing).toEqual([]);

    // Doubles are dropped by ingest's dedupe on (monitor, location, slot): assert that none even arrived.
    const duplicates = await ingested("duplicate");
    // And what any member sent again after a send that failed on a busy machine (a timeout after the server had
    // stored it): no other double, such as a slot run by two members, is allowed.
    const resends = resentBeforeKill + (await Promise.all(pool.map(resent))).reduce((a, b) => a + b, 0);
    expect(duplicates).toBeLessThanOrEqual(unacked + resends);
    expect(rows.rows.length).toBeGreaterThanOrEqual(acceptedBefore);
    expect(rows.rows.length).toBeLessThanOrEqual(acceptedAfter);
    console.log(
      `probe pool: ${expected} slots expected, ${storedCount} stored, ${expected - storedCount} lost to the kill, ${duplicates} doubled (${unacked} unacknowledged at the kill, ${resends} resent after a failed send); ` +
        `rebalanced ${rebalance - killedAt} ms after the kill, rejoined ${joined.from - rebalance} ms later`,
    );

    // Healthy targets: no status change, no alert.
    expect(hook.deliveries).toEqual([]);
    for (const id of ids) expect((await stack.api("GET", `/v1/monitors/${id}`)).body.health).toBe("ok");
  });
});
