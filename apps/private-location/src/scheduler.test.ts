import { type ProbeMonitor, type ProbePool, TcpCheck } from "@vigil/api-contract";
import { describe, expect, it } from "vitest";
import { ownerOf, PoolShare } from "./pool";
import { type Clock, type Job, Scheduler, type SkipReason, slotAtOrAfter, slotOffset } from "./scheduler";
import { tcpProbeMonitor } from "./test-harness";

/** A clock whose timers fire only when the test advances time. */
class FakeClock implements Clock {
  t: number;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private nextId = 0;
  maxTimers = 0;

  constructor(start: number) {
    this.t = start;
  }
  now = () => this.t;
  setTimer = (fn: () => void, ms: number) => {
    const id = ++this.nextId;
    this.timers.set(id, { at: this.t + ms, fn });
    this.maxTimers = Math.max(this.maxTimers, this.timers.size);
    return id;
  };
  clearTimer = (h: unknown) => {
    this.timers.delete(h as number);
  };
  /** Moves time forward, firing timers in order (and letting promises settle after each). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = Math.max(this.t, due[1].at);
      due[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
  /** Time passes but no timer fires: a blocked event loop or a suspended machine. */
  stall(ms: number): void {
    this.t += ms;
  }
}

const settle = () => new Promise<void>((r) => setImmediate(r));

const monitor = (id: number, over: Partial<ProbeMonitor> = {}): ProbeMonitor => tcpProbeMonitor(id, `m${id}`, 9, over);

/** A scheduler whose checks end only when the test says so. */
function harness(opts: { concurrency?: number; offset?: number; start?: number; clock?: FakeClock; share?: PoolShare } = {}) {
  // Not on a period boundary, so that no slot is due the moment monitors are added.
  const clock = opts.clock ?? new FakeClock(opts.start ?? 1_800_000_000_500);
  const jobs: Job[] = [];
  const finish = new Map<Job, () => void>();
  const skips: { id: number; slot: number; reason: SkipReason; count: number }[] = [];
  let running = 0;
  let maxRunning = 0;
  const scheduler = new Scheduler({
    clock,
    concurrency: opts.concurrency ?? 100,
    ...(opts.offset !== undefined && { offsetOf: () => opts.offset! }),
    ...(opts.share && { owns: (id: number, slot: number) => opts.share!.owns(id, slot) }),
    run: (job) =>
      new Promise<void>((resolve) => {
        jobs.push(job);
        running++;
        maxRunning = Math.max(maxRunning, running);
        const done = () => {
          running--;
          resolve();
        };
        finish.set(job, done);
        job.signal.addEventListener("abort", done, { once: true });
      }),
    onSkip: (m, slot, reason, count) => skips.push({ id: m.id, slot, reason, count }),
  });
  const endAll = async () => {
    for (const [job, done] of finish) {
      finish.delete(job);
      done();
    }
    await settle();
  };
  return { clock, scheduler, jobs, finish, skips, endAll, maxRunning: () => maxRunning };
}

describe("scheduler", () => {
  it("a monitor created while the probe runs is checked at once, in the slot under way, then on its slots", async () => {
    const h = harness({ offset: 10_000 });
    h.scheduler.sync([monitor(1)]);
    await h.clock.advance(0);
    expect(h.jobs).toHaveLength(0); // at start-up monitors wait for their slot
    h.scheduler.sync([monitor(1), monitor(2)]);
    await h.clock.advance(0);
    expect(h.jobs.map((j) => j.monitor.id)).toEqual([2]);
    const slot = h.jobs[0]!.slot;
    expect(slot).toBeLessThanOrEqual(h.clock.now());
    expect(slot).toBe(slotAtOrAfter(h.clock.now(), 30_000, 10_000) - 30_000);
    await h.endAll();
    await h.clock.advance(30_000);
    expect(h.jobs.filter((j) => j.monitor.id === 2).map((j) => j.slot)).toEqual([slot, slot + 30_000]);
  });

  it("5,000 monitors created in bulk are each first checked within 15 s, at most 500 starting in any second, none late", async () => {
    const h = harness({ concurrency: 500 });
    h.scheduler.sync([monitor(1)]);
    await h.clock.advance(0);
    const createdAt = h.clock.now();
    const bulk = Array.from({ length: 5_000 }, (_, i) => monitor(i + 2));
    h.scheduler.sync([monitor(1), ...bulk]);
    const perSecond: number[] = [];
    const firstAt = new Map<number, number>();
    for (let s = 0; s < 15; s++) {
      // Started after their slot: the first checks (those run at their own slot come on top, as every second).
      const before = h.jobs.filter((j) => j.lagMs > 0).length;
      for (let step = 0; step < 10; step++) {
        await h.clock.advance(100);
        for (const j of h.jobs) if (!firstAt.has(j.monitor.id)) firstAt.set(j.monitor.id, j.startedAt);
        await h.endAll();
      }
      perSecond.push(h.jobs.filter((j) => j.lagMs > 0).length - before);
    }
    for (const m of bulk) expect(firstAt.get(m.id)! - createdAt, `monitor ${m.id}`).toBeLessThanOrEqual(15_000);
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(501);
    // Each first check runs in a slot of its own whose window still has room for it.
    for (const j of h.jobs) {
      expect(j.slot).toBe(slotAtOrAfter(j.slot, 30_000, slotOffset(j.monitor.id, 30_000)));
      expect(j.deadline - j.startedAt).toBeGreaterThanOrEqual(5000);
    }
    expect(h.skips).toEqual([]);
  });

  it("a restarted probe runs each slot that fell due while it was away, late, with its own slot time, once", async () => {
    const h = harness({ offset: 10_000 });
    const stoppedAt = h.clock.now();
    // Away for 25 s: slot 10_000 (mod 30 s) fell due meanwhile and its window is still open.
    const back = new FakeClock(stoppedAt + 25_000);
    const r = harness({ offset: 10_000, clock: back });
    r.scheduler.resume(stoppedAt);
    r.scheduler.sync([monitor(1), monitor(2)]);
    await back.advance(0);
    const missed = slotAtOrAfter(stoppedAt, 30_000, 10_000);
    expect(missed).toBeLessThan(back.now());
    expect(r.jobs.map((j) => [j.monitor.id, j.slot])).toEqual([
      [1, missed],
      [2, missed],
    ]);
    expect(r.jobs[0]!.lagMs).toBeGreaterThan(0);
    await r.endAll();
    await back.advance(30_000);
    expect(r.jobs.filter((j) => j.monitor.id === 1).map((j) => j.slot)).toEqual([missed, missed + 30_000]);
    // Late on purpose, so not counted as the probe's lag; the next slot is on time again.
    expect(r.jobs.filter((j) => j.monitor.id === 1).map((j) => j.catchUp)).toEqual([true, false]);
    expect(r.skips).toEqual([]);
    expect(h.jobs).toEqual([]);
  });

  it("a restarted probe does not re-run a slot it handled before it stopped, nor one whose window is over", async () => {
    const h = harness({ offset: 10_000 });
    h.scheduler.sync([monitor(1)]);
    const slot = slotAtOrAfter(h.clock.now(), 30_000, 10_000);
    await h.clock.advance(slot - h.clock.now());
    expect(h.jobs.map((j) => j.slot)).toEqual([slot]);
    expect(h.scheduler.handledBefore()).toBe(slot); // running: not handled yet
    await h.endAll();
    await h.clock.advance(1000);
    const handled = h.scheduler.handledBefore()!;
    expect(handled).toBeGreaterThan(slot);
    const again = harness({ offset: 10_000, clock: new FakeClock(handled + 5000) });
    again.scheduler.resume(handled);
    again.scheduler.sync([monitor(1)]);
    await again.clock.advance(0);
    expect(again.jobs).toEqual([]);
    // Away for two periods: the slot under way's window is open, the older one's is over and stays missed.
    const late = harness({ offset: 10_000, clock: new FakeClock(handled + 65_000) });
    late.scheduler.resume(handled);
    late.scheduler.sync([monitor(1)]);
    await late.clock.advance(0);
    expect(late.jobs.map((j) => j.slot)).toEqual([slot + 60_000]);
  });

  it("gives each monitor a stable offset, and spreads 10,000 monitors evenly over the period", () => {
    expect(slotOffset(42, 30_000)).toBe(slotOffset(42, 30_000));
    const perSecond = new Array<number>(30).fill(0);
    for (let id = 1; id <= 10_000; id++) {
      const o = slotOffset(id, 30_000);
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(30_000);
      perSecond[Math.floor(o / 1000)]!++;
    }
    // 333 per second on average; no second of the period gets a herd, none is empty.
    expect(Math.max(...perSecond)).toBeLessThan(420);
    expect(Math.min(...perSecond)).toBeGreaterThan(250);
    expect(new Set([1, 2, 3, 4, 5].map((id) => slotOffset(id, 30_000))).size).toBe(5);
  });

  it("two probes of a pool run each slot of each monitor once between them, through a probe joining and one leaving, and skip nothing", async () => {
    const clock = new FakeClock(1_800_000_000_500);
    const t0 = clock.now();
    const pool = {
      version: 1,
      plans: [
        { from: 0, members: ["a"] },
        { from: t0 + 95_000, members: ["a", "b"] }, // b joins mid-period
        { from: t0 + 190_000, members: ["b"] }, // a dies
      ],
    };
    const shares = [new PoolShare("a"), new PoolShare("b")];
    const probes = shares.map((share) => {
      share.set(pool);
      return harness({ clock, share });
    });
    const monitors = Array.from({ length: 40 }, (_, i) => monitor(i + 1));
    for (const p of probes) p.scheduler.sync(monitors);
    for (let t = 0; t < 300_000; t += 5000) {
      await clock.advance(5000);
      for (const p of probes) await p.endAll();
    }
    const [a, b] = probes.map((p) => p.jobs.map((j) => `${j.monitor.id}:${j.slot}`));
    const all = [...a!, ...b!];
    expect(new Set(all).size).toBe(all.length); // no slot twice
    expect(all).toHaveLength(40 * 10); // none left out: ten slots each in 300 s
    expect(b!.length).toBeGreaterThan(0);
    expect(
      probes.every((p) => p.jobs.every((j) => (j.slot < t0 + 95_000 ? p === probes[0] : j.slot < t0 + 190_000 || p === probes[1]))),
    ).toBe(true);
    expect(probes.flatMap((p) => p.skips)).toEqual([]);
  });

  it("runs a monitor once per slot at period start + offset, with the slot as cronTimestamp and the slot's end as deadline", async () => {
    const h = harness({ offset: 5000, start: 1_800_000_001_000 });
    h.scheduler.sync([monitor(1)]);
    for (let i = 0; i < 4; i++) {
      await h.clock.advance(30_000);
      await h.endAll();
    }
    const slots = h.jobs.map((j) => j.slot);
    expect(slots).toEqual([1_800_000_005_000, 1_800_000_035_000, 1_800_000_065_000, 1_800_000_095_000]);
    for (const j of h.jobs) {
      expect(j.slot % 30_000).toBe(5000);
      expect(j.deadline).toBe(j.slot + 30_000 - 1000);
      expect(j.lagMs).toBe(0);
    }
  });

  it("keeps a single timer for thousands of monitors", async () => {
    const h = harness({ concurrency: 5000 });
    h.scheduler.sync(Array.from({ length: 2000 }, (_, i) => monitor(i + 1)));
    await h.clock.advance(30_000);
    expect(h.jobs.length).toBe(2000);
    expect(h.clock.maxTimers).toBe(1);
    expect(new Set(h.jobs.map((j) => j.monitor.id)).size).toBe(2000);
  });

  it("skips (and counts) a slot whose previous check is still running instead of overlapping it", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(7)]);
    await h.clock.advance(30_000); // first slot starts and hangs
    await h.clock.advance(30_000); // second slot comes while it runs
    expect(h.jobs).toHaveLength(1);
    expect(h.skips).toEqual([{ id: 7, slot: h.jobs[0]!.slot + 30_000, reason: "overlap", count: 1 }]);
    expect(h.maxRunning()).toBe(1);
    await h.endAll();
    await h.clock.advance(30_000);
    expect(h.jobs.map((j) => j.slot)).toEqual([h.jobs[0]!.slot, h.jobs[0]!.slot + 60_000]);
  });

  it("holds checks back past the concurrency bound, in order, and measures their wait as lag", async () => {
    const h = harness({ offset: 0, concurrency: 2 });
    h.scheduler.sync([monitor(1), monitor(2), monitor(3), monitor(4)]);
    await h.clock.advance(slotAtOrAfter(h.clock.t, 30_000, 0) - h.clock.t);
    expect(h.jobs.map((j) => j.monitor.id)).toEqual([1, 2]);
    expect(h.scheduler.queued).toBe(2);
    await h.clock.advance(300);
    h.finish.get(h.jobs[0]!)!();
    await settle();
    expect(h.jobs.map((j) => j.monitor.id)).toEqual([1, 2, 3]);
    expect(h.jobs[2]!.lagMs).toBe(300);
    expect(h.jobs[2]!.slot).toBe(h.jobs[0]!.slot);
    expect(h.maxRunning()).toBe(2);
  });

  it("measures lag when the timer fires late", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(1)]);
    const slot = slotAtOrAfter(h.clock.t, 30_000, 0);
    h.clock.stall(slot - h.clock.t + 120);
    await h.clock.advance(0);
    expect(h.jobs.map((j) => [j.slot, j.lagMs])).toEqual([[slot, 120]]);
  });

  it("does not replay the slots a stalled loop missed; it counts them and runs the current one", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(1)]);
    await h.clock.advance(30_000);
    await h.endAll();
    const first = h.jobs[0]!.slot;
    h.clock.stall(5 * 60_000 + 10_000); // 5 min 10 s without a turn of the loop
    await h.clock.advance(0);
    // Slot first+30s is due now; its window is long over, as are those up to first+5min. first+5min+... runs.
    expect(h.jobs).toHaveLength(2);
    expect(h.jobs[1]!.slot).toBe(first + 10 * 30_000);
    const late = h.skips.filter((s) => s.reason === "late").reduce((n, s) => n + s.count, 0);
    expect(late).toBe(9);
  });

  it("a probe restarted on kept plans runs no slot the server's plans gave away meanwhile, and its own slots late rather than never", async () => {
    const t0 = 1_800_000_000_500;
    // Killed as a member of a, b.
    const kept = { version: 1, plans: [{ from: 0, members: ["a", "b"] }] };
    const monitors = Array.from({ length: 40 }, (_, i) => monitor(i + 1));
    const mine = monitors.filter((m) => ownerOf(["a", "b"], m.id) === "a").map((m) => m.id);
    /** Restarts `a` on the kept plans at t0; the server answers `server` after 3 s; one period passes. */
    const restart = async (server: ProbePool) => {
      const clock = new FakeClock(t0);
      const share = new PoolShare("a");
      share.restore(kept);
      const h = harness({ clock, share });
      h.scheduler.sync(monitors);
      await clock.advance(3000);
      const held = h.scheduler.holding;
      expect(h.jobs).toEqual([]);
      share.set(server);
      share.settle();
      h.scheduler.release();
      await clock.advance(27_000);
      await h.endAll();
      await h.scheduler.stop(0);
      expect(h.skips).toEqual([]);
      return { held, jobs: h.jobs };
    };

    // The pool ran on without it and takes it back 10 s after it returns: the slots before that were b's.
    const gone = await restart({
      version: 3,
      plans: [...kept.plans, { from: t0 - 60_000, members: ["b"] }, { from: t0 + 10_000, members: ["a", "b"] }],
    });
    expect(gone.held).toBeGreaterThan(0);
    expect(gone.jobs.filter((j) => j.slot < t0 + 10_000)).toEqual([]);
    expect(gone.jobs.length).toBeGreaterThan(0);
    for (const j of gone.jobs) expect(mine).toContain(j.monitor.id);

    // Back before the pool dropped it: its held slots run at the answer, each with its slot's time.
    const back = await restart(kept);
    expect(back.held).toBeGreaterThan(0);
    const late = back.jobs.filter((j) => j.slot < t0 + 3000);
    expect(late.length).toBeGreaterThan(0);
    for (const j of late) expect(j.startedAt).toBe(t0 + 3000);
    expect(back.jobs.map((j) => j.monitor.id).sort((x, y) => x - y)).toEqual(mine);
  });

  it("in a pool, a stalled loop counts as late only the missed slots that were this probe's", async () => {
    const share = new PoolShare("a");
    share.set({ version: 1, plans: [{ from: 0, members: ["a", "b"] }] });
    const h = harness({ offset: 0, share });
    const monitors = Array.from({ length: 20 }, (_, i) => monitor(i + 1));
    h.scheduler.sync(monitors);
    await h.clock.advance(30_000);
    await h.endAll();
    const first = Math.floor(h.clock.now() / 30_000) * 30_000;
    h.clock.stall(5 * 60_000 + 10_000);
    await h.clock.advance(0);
    const mine = monitors.filter((m) => share.owns(m.id, first)).length;
    expect(mine).toBeGreaterThan(0);
    expect(mine).toBeLessThan(20);
    const late = h.skips.filter((s) => s.reason === "late").reduce((n, s) => n + s.count, 0);
    expect(late).toBe(mine * 9); // with one plan a monitor's owner is the same for every slot
  });

  it("aborts a removed monitor's running check and runs it no more", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(1), monitor(2)]);
    await h.clock.advance(30_000);
    const job1 = h.jobs.find((j) => j.monitor.id === 1)!;
    h.scheduler.sync([monitor(2)]);
    expect(job1.signal.aborted).toBe(true);
    expect(h.jobs.find((j) => j.monitor.id === 2)!.signal.aborted).toBe(false);
    await h.endAll();
    await h.clock.advance(90_000);
    await h.endAll();
    expect(h.jobs.filter((j) => j.monitor.id === 1)).toHaveLength(1);
    expect(h.scheduler.size).toBe(1);
  });

  it("runs a changed monitor's new definition at its same slots, without an extra run", async () => {
    const h = harness();
    h.scheduler.sync([monitor(3)]);
    await h.clock.advance(30_000);
    await h.endAll();
    const changed = monitor(3, { version: 2, check: TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: 10 }) });
    expect(h.scheduler.sync([changed])).toEqual({ added: 0, changed: 1, removed: 0 });
    await h.clock.advance(30_000);
    await h.endAll();
    expect(h.jobs.map((j) => j.monitor.version)).toEqual([1, 2]);
    expect(h.jobs[1]!.slot - h.jobs[0]!.slot).toBe(30_000);
  });

  it("moves a monitor whose frequency changed onto the new period", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(4)]);
    await h.clock.advance(30_000);
    await h.endAll();
    h.scheduler.sync([monitor(4, { version: 2, frequency: "1m", intervalMs: 60_000 })]);
    for (let i = 0; i < 4; i++) {
      await h.clock.advance(30_000);
      await h.endAll();
    }
    const later = h.jobs.slice(1).map((j) => j.slot);
    expect(later.length).toBeGreaterThanOrEqual(2);
    for (const s of later) expect(s % 60_000).toBe(0);
    expect(later[1]! - later[0]!).toBe(60_000);
  });

  it("on stop, waits for running checks within the grace time, then aborts the rest", async () => {
    const h = harness({ offset: 0 });
    h.scheduler.sync([monitor(1), monitor(2)]);
    await h.clock.advance(30_000);
    h.finish.get(h.jobs[0]!)!(); // one finishes on its own
    await settle();
    const stopped = h.scheduler.stop(2000);
    await h.clock.advance(2000);
    await stopped;
    expect(h.jobs.map((j) => j.signal.aborted)).toEqual([false, true]);
    await h.clock.advance(60_000);
    expect(h.jobs).toHaveLength(2);
  });
});
