// Several probes on one location's key: the server counts them and hands out the pool's plans.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function location(name: string): Promise<string> {
  const loc = await s.call("POST", "/v1/private-locations", { name, region: "fra" });
  return loc.body.serviceKey;
}

const get = (path: string, key: string, instance?: string, extra: RequestInit = {}) =>
  fetch(`${s.url}${path}`, {
    ...extra,
    headers: { authorization: `Bearer ${key}`, ...(instance && { "x-vigil-probe-instance": instance }), ...extra.headers },
  });

type Plans = { from: number; members: string[] }[];
type Pool = { version: number; plans: Plans };
/** A member's long-poll, telling the list ETag and the pool version it knows. */
const wait = (key: string, instance: string, etag: string, pool: number, more = "&timeout=10000", init: RequestInit = {}) =>
  get(`/v1/probe/wait?etag=${encodeURIComponent(etag)}&pool=${pool}${more}`, key, instance, init);
/** The members of each plan, as a probe's fetch of its list shows them. */
async function membersSeenBy(key: string, instance: string): Promise<string[][]> {
  const list = (await (await get("/v1/probe/monitors", key, instance)).json()) as { pool: { plans: Plans } };
  return list.pool.plans.map((p) => p.members);
}

describe("probe pools", () => {
  it("a probe that names no instance gets its monitors as before, with no pool", async () => {
    const key = await location("no-pool");
    const res = await get("/v1/probe/monitors", key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Record<string, unknown>).pool).toBeUndefined();
  });

  it("a second probe on the same key joins the pool: the first one's long-poll answers at once with both, the newcomer from a later slot, and its list stays unchanged", async () => {
    const key = await location("pool-join");
    const first = await get("/v1/probe/monitors", key, "alpha");
    const alone = (await first.json()) as { pool: Pool };
    expect(alone.pool.plans).toEqual([{ from: 0, members: ["alpha"] }]);
    const etag = first.headers.get("etag")!;

    const t0 = Date.now();
    const waiting = wait(key, "alpha", etag, alone.pool.version);
    await new Promise((r) => setTimeout(r, 300));
    expect((await get("/v1/probe/monitors", key, "beta")).status).toBe(200);
    const woke = (await (await waiting).json()) as { changed: boolean; pool: Pool };
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(woke.changed).toBe(false);
    expect(woke.pool.plans.map((p) => p.members)).toEqual([["alpha"], ["alpha", "beta"]]);
    expect(woke.pool.plans[1]!.from).toBeGreaterThan(t0);
    // The list is the same: no refetch of every monitor on a membership change.
    expect((await get("/v1/probe/monitors", key, "alpha", { headers: { "if-none-match": etag } })).status).toBe(304);
    // Known now: the next poll waits.
    const t1 = Date.now();
    await (await wait(key, "alpha", etag, woke.pool.version, "&timeout=500")).json();
    expect(Date.now() - t1).toBeGreaterThanOrEqual(450);
  });

  it("a probe that hangs up its long-poll (killed) leaves the pool at once, and the others are woken", async () => {
    const key = await location("pool-leave");
    await get("/v1/probe/monitors", key, "alpha");
    const res = await get("/v1/probe/monitors", key, "beta");
    const known = ((await res.json()) as { pool: Pool }).pool.version;
    const etag = res.headers.get("etag")!;
    const hangUp = new AbortController();
    const doomed = wait(key, "beta", etag, known, "", { signal: hangUp.signal });
    doomed.catch(() => {});
    const survivor = wait(key, "alpha", etag, known);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    hangUp.abort();
    const answer = (await (await survivor).json()) as { pool: Pool };
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(answer.pool.plans.map((p) => p.members)).toEqual([["alpha"], ["alpha", "beta"], ["alpha"]]);
  });

  it("a probe silent for two long-polls (power lost, connection never closed) is dropped at another member's next request", async () => {
    const key = await location("pool-silent");
    await get("/v1/probe/monitors", key, "alpha");
    await get("/v1/probe/monitors", key, "beta");
    // PROBE_WAIT_MS is 2 s here: beta is dead once unseen for 5 s, while alpha keeps polling.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await membersSeenBy(key, "alpha")).toEqual([["alpha"], ["alpha", "beta"]]);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await membersSeenBy(key, "alpha")).toEqual([["alpha"], ["alpha", "beta"], ["alpha"]]);
  });

  it("a malformed instance id is refused with 400 naming the header", async () => {
    const key = await location("pool-bad");
    const res = await get("/v1/probe/monitors", key, "not an id!");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "invalid_input", issues: [{ path: "x-vigil-probe-instance" }] } });
  });
});
