// The scheduler in one file: its clock, slots, min-heap loop, overlap and catch-up rules are one timing model.
import type { ProbeMonitor } from "@vigil/api-contract";
import { MinHeap } from "./heap";

/** Time and timers, injectable so tests can drive the scheduler without waiting. */
export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

let skew = 0;
/**
 * Wall-clock ms with sub-millisecond resolution: the monotonic high-resolution clock, kept within 1 ms
 * of Date.now() (re-anchored when the wall clock is stepped), so slots follow the wall clock and lag
 * is measured finer than Date.now()'s whole milliseconds.
 */
function preciseNow(): number {
  const fine = performance.timeOrigin + performance.now();
  const wall = Date.now();
  if (Math.abs(fine + skew - wall) > 1) skew = wall - fine;
  return fine + skew;
}

export const systemClock: Clock = {
  now: preciseNow,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * A monitor's stable place inside its period: a 32-bit integer hash of its id, modulo the interval.
 * Slots of 10,000 monitors are spread evenly over the period instead of all firing at :00, and every
 * probe (and every restart of one) picks the same slots, so results of several locations line up.
 */
export function slotOffset(monitorId: number, intervalMs: number): number {
  // murmur3's finaliser: consecutive ids land far apart.
  let h = (monitorId ^ Math.floor(monitorId / 2 ** 32)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return h % intervalMs;
}

/** The first slot at or after `t`: slots are `k * intervalMs + offset` (k counted from the epoch). */
export function slotAtOrAfter(t: number, intervalMs: number, offset: number): number {
  return Math.ceil((t - offset) / intervalMs) * intervalMs + offset;
}

export interface Job {
  monitor: ProbeMonitor;
  /** The planned slot time: the result's `cronTimestamp`. */
  slot: number;
  /** Retries must be over by then: the end of the slot, less the guard. */
  deadline: number;
  startedAt: number;
  /** Actual start − planned slot, ms. */
  lagMs: number;
  /** Started after its slot on purpose (a first check, a slot that fell due while the probe was away): its lag is not the probe's. */
  catchUp: boolean;
  /** Aborted when the monitor is removed or the probe stops. */
  signal: AbortSignal;
}

/**
 * `overlap`: the monitor's previous check was still running (or waiting for a free run) at this slot.
 * `late`: the slot's window was over before it could start (event loop stalled, machine suspended, or
 * the concurrency bound held it back for a whole period).
 */
export type SkipReason = "overlap" | "late";

export interface SchedulerOptions {
  run(job: Job): Promise<void>;
  /** At most this many checks run at once; further due slots wait in order. */
  concurrency: number;
  clock?: Clock;
  offsetOf?(monitorId: number, intervalMs: number): number;
  /**
   * A check must be over this long before its slot ends, so that a check using its whole budget has
   * settled when the next slot fires instead of making that slot skip. Default: min(1 s, interval/30).
   */
  guardMs?(intervalMs: number): number;
  /**
   * False for a slot another probe of the pool runs: it is passed over silently (not a skip). Asked per
   * slot, as it falls due, so a monitor moving between probes changes hands at a slot boundary.
   * Undefined while the probe cannot tell yet: the slot is held until `release()` asks again.
   */
  owns?(monitorId: number, slot: number): boolean | undefined;
  onStart?(job: Job): void;
  onSkip?(monitor: ProbeMonitor, slot: number, reason: SkipReason, count: number): void;
  onError?(monitor: ProbeMonitor, err: unknown): void;
}

interface Entry {
  monitor: ProbeMonitor;
  offset: number;
  /** Bumped when the slot series changes, so heap items of the old series are ignored. */
  gen: number;
  /** Set while a slot of this monitor waits for a free run or runs. */
  busy?: { slot: number; controller?: AbortController };
  removed?: boolean;
}

interface Due {
  at: number;
  id: number;
  gen: number;
  /** The slot this item runs, when it starts later than the slot itself (a first check, a slot missed while away). */
  slot?: number;
}

/** At most this many monitors appearing in one sync are checked at once; more are a bulk creation. */
export const BURST = 20;

/**
 * First checks of a bulk creation start at this rate at most (5,000 new monitors in 10 s), each in its
 * slot under way, so they are checked at once without a burst that makes other checks late.
 */
export const FIRST_CHECKS_PER_SECOND = 500;
/** A first check needs this much of its slot's window left; else it waits for the monitor's next slot. */
const FIRST_CHECK_ROOM_MS = 5000;

const defaultGuard = (intervalMs: number) => Math.min(1000, Math.floor(intervalMs / 30));

/**
 * Runs each monitor once per slot of its frequency, from one min-heap and one timer.
 * Overlap policy: skip. A slot that comes while the same monitor's previous check still runs is not
 * queued: queueing would start checks later and later against a slow target and pile them up, and
 * the result of a slot is only meaningful at its time. Skips are counted and reported.
 */
export class Scheduler {
  private readonly clock: Clock;
  private readonly offsetOf: (monitorId: number, intervalMs: number) => number;
  private readonly guardOf: (intervalMs: number) => number;
  private readonly entries = new Map<number, Entry>();
  private readonly heap = new MinHeap<Due>((a, b) => a.at < b.at || (a.at === b.at && a.id < b.id));
  private readonly waiting: { entry: Entry; slot: number; catchUp: boolean }[] = [];
  /** Slots due while `owns` could not tell whose they are. */
  private readonly held: { entry: Entry; slot: number; gen: number; catchUp: boolean }[] = [];
  private waitingHead = 0;
  private readonly runs = new Set<Promise<void>>();
  private timer: unknown;
  private armedFor = Number.NaN;
  private stopped = false;
  /** After the first sync, a monitor that appears is new: its first check runs at once. */
  private synced = false;
  /** When the last first check of a bulk creation is planned to start. */
  private firstChecksUntil = 0;
  /** Slots up to this were handled before a restart: the slot under way, if later, runs at the first sync. */
  private resumeAfter: number | undefined;

  constructor(private readonly opts: SchedulerOptions) {
    this.clock = opts.clock ?? systemClock;
    this.offsetOf = opts.offsetOf ?? slotOffset;
    this.guardOf = opts.guardMs ?? defaultGuard;
  }

  get size(): number {
    return this.entries.size;
  }

  get running(): number {
    return this.runs.size;
  }

  get queued(): number {
    return this.waiting.length - this.waitingHead;
  }

  /** Makes the schedule match `monitors`: adds new ones, updates changed ones, stops removed ones. */
  sync(monitors: readonly ProbeMonitor[]): { added: number; changed: number; removed: number } {
    const seen = new Set<number>();
    let added = 0;
    let changed = 0;
    let removed = 0;
    const fresh = monitors.reduce((n, m) => n + (this.entries.has(m.id) ? 0 : 1), 0);
    // A few new monitors are checked at once; a bulk creation waits for each monitor's own slot, spread over
    // its interval, so the probe's burst never makes checks miss their deadline.
    const atOnce = this.synced && fresh <= BURST;
    const bulk: { m: ProbeMonitor; next: number }[] = [];
    const now = this.clock.now();
    for (const m of monitors) {
      seen.add(m.id);
      const e = this.entries.get(m.id);
      if (!e) {
        if (this.synced && !atOnce) bulk.push({ m, next: slotAtOrAfter(now, m.intervalMs, this.offsetOf(m.id, m.intervalMs)) });
        else this.add(m, atOnce);
        added++;
      } else if (e.monitor.version !== m.version || e.monitor.intervalMs !== m.intervalMs) {
        this.update(e, m);
        changed++;
      }
    }
    // Earliest window end first: a monitor whose slot under way ends soon gets an early place, so few wait for their next slot.
    bulk.sort((a, b) => a.next - b.next);
    for (const { m } of bulk) this.addInBulk(m);
    for (const id of [...this.entries.keys()]) {
      if (!seen.has(id)) {
        this.remove(id);
        removed++;
      }
    }
    this.synced = true;
    this.arm();
    return { added, changed, removed };
  }

  /** The next slot planned for a monitor, for status pages and tests. */
  nextSlot(monitorId: number): number | undefined {
    const e = this.entries.get(monitorId);
    return e && slotAtOrAfter(this.clock.now(), e.monitor.intervalMs, e.offset);
  }

  /**
   * Before the first sync: slots up to `through` were handled by this probe before it stopped. A monitor's
   * slot under way, if it is later, fell due while the probe was away: it runs at once, late, with its own
   * slot time, while its window is still open.
   */
  resume(through: number): void {
    if (!this.synced) this.resumeAfter = through;
  }

  /**
   * Every slot before this time that fell due here has been handled (run and its result kept, skipped, or
   * another probe's); kept on disk so a restart knows which slots it missed.
   */
  handledBefore(): number | undefined {
    if (!this.synced) return this.resumeAfter;
    // Slots before the next due item have all been handed out, except those still running, waiting or held.
    let before = Math.min(this.clock.now(), this.heap.peek()?.at ?? Number.POSITIVE_INFINITY);
    for (const e of this.entries.values()) if (e.busy && e.busy.slot < before) before = e.busy.slot;
    for (const h of this.held) if (h.slot < before) before = h.slot;
    return before;
  }

  /** Slots held until `owns` can tell. */
  get holding(): number {
    return this.held.length;
  }

  /** Asks `owns` again for the held slots: each runs now if it is this probe's and its window is still open. */
  release(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    for (const { entry, slot, gen, catchUp } of this.held.splice(0)) {
      if (this.entries.get(entry.monitor.id) === entry && entry.gen === gen) this.due(entry, slot, now, catchUp);
    }
  }

  /** Stops scheduling; waits up to `graceMs` for running checks, then aborts what is left. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.heap.clear();
    this.held.length = 0;
    this.waiting.length = 0;
    this.waitingHead = 0;
    const all = Promise.allSettled([...this.runs]);
    let graceTimer: unknown;
    const graceOver = new Promise<"timeout">((r) => {
      graceTimer = this.clock.setTimer(() => r("timeout"), graceMs);
    });
    if ((await Promise.race([all, graceOver])) === "timeout") {
      for (const e of this.entries.values()) e.busy?.controller?.abort(new Error("probe stopping"));
      await all;
    }
    this.clock.clearTimer(graceTimer);
  }

  /**
   * A monitor created while the probe runs (one of a few) is checked at once, in the slot under way (so
   * its result lines up with other probes'), then on its slots; at start-up (first sync) and in a bulk
   * creation every monitor waits for its slot, so they never all fire at the same moment.
   */
  private add(m: ProbeMonitor, atOnce: boolean): void {
    const e: Entry = { monitor: m, offset: this.offsetOf(m.id, m.intervalMs), gen: 0 };
    this.entries.set(m.id, e);
    const now = this.clock.now();
    const next = slotAtOrAfter(now, m.intervalMs, e.offset);
    const underWay = next - m.intervalMs;
    if (atOnce && next > now) this.heap.push({ at: now, id: m.id, gen: e.gen, slot: underWay });
    else if (!this.synced && this.resumeAfter !== undefined && underWay > this.resumeAfter && next - this.guardOf(m.intervalMs) > now) {
      this.heap.push({ at: now, id: m.id, gen: e.gen, slot: underWay });
    } else this.push(e, next);
  }

  /**
   * One of a bulk creation: its first check runs in the slot under way, at the next free place of the
   * first-check rate, unless its own next slot comes first or too little of the window would be left.
   */
  private addInBulk(m: ProbeMonitor): void {
    const e: Entry = { monitor: m, offset: this.offsetOf(m.id, m.intervalMs), gen: 0 };
    this.entries.set(m.id, e);
    const now = this.clock.now();
    const next = slotAtOrAfter(now, m.intervalMs, e.offset);
    const start = Math.max(now, this.firstChecksUntil) + 1000 / FIRST_CHECKS_PER_SECOND;
    const room = Math.min(FIRST_CHECK_ROOM_MS, m.intervalMs / 4) + this.guardOf(m.intervalMs);
    if (next - start < room) {
      this.push(e, next);
      return;
    }
    this.firstChecksUntil = start;
    this.heap.push({ at: start, id: m.id, gen: e.gen, slot: next - m.intervalMs });
  }

  private update(e: Entry, m: ProbeMonitor): void {
    const intervalChanged = e.monitor.intervalMs !== m.intervalMs;
    // The next slot runs the new definition; a running check finishes with the old one.
    e.monitor = m;
    if (!intervalChanged) return;
    e.offset = this.offsetOf(m.id, m.intervalMs);
    e.gen++;
    this.push(e, slotAtOrAfter(this.clock.now(), m.intervalMs, e.offset));
  }

  private remove(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    e.removed = true;
    e.busy?.controller?.abort(new Error("monitor removed"));
  }

  private push(e: Entry, at: number): void {
    this.heap.push({ at, id: e.monitor.id, gen: e.gen });
  }

  private arm(): void {
    if (this.stopped) return;
    const top = this.heap.peek();
    if (top === undefined) {
      if (this.timer !== undefined) this.clock.clearTimer(this.timer);
      this.timer = undefined;
      this.armedFor = Number.NaN;
      return;
    }
    if (this.timer !== undefined && this.armedFor === top.at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.armedFor = top.at;
    this.timer = this.clock.setTimer(this.tick, Math.max(0, top.at - this.clock.now()));
  }

  private readonly tick = (): void => {
    this.timer = undefined;
    this.armedFor = Number.NaN;
    const now = this.clock.now();
    for (let top = this.heap.peek(); top !== undefined && top.at <= now; top = this.heap.peek()) {
      this.heap.pop();
      const e = this.entries.get(top.id);
      if (!e || e.gen !== top.gen) continue; // removed, or its slot series was replaced
      const slot = top.slot ?? top.at;
      this.due(e, slot, now, top.slot !== undefined);
      this.push(e, this.nextAfter(e, slot, now));
    }
    this.arm();
  };

  /** The slot after `slot`; slots whose whole window already passed (a stalled loop) are skipped, not replayed. */
  private nextAfter(e: Entry, slot: number, now: number): number {
    const interval = e.monitor.intervalMs;
    const next = slot + interval;
    const windowEnd = next + interval - this.guardOf(interval);
    if (windowEnd > now) return next;
    const missed = Math.floor((now - windowEnd) / interval) + 1;
    // In a pool, only the missed slots this probe owned were its to run.
    let mine = missed;
    if (this.opts.owns) {
      mine = 0;
      for (let k = 0; k < missed; k++) if (this.opts.owns(e.monitor.id, next + k * interval)) mine++;
    }
    if (mine > 0) this.opts.onSkip?.(e.monitor, next, "late", mine);
    return next + missed * interval;
  }

  private due(e: Entry, slot: number, now: number, catchUp = false): void {
    const owned = this.opts.owns ? this.opts.owns(e.monitor.id, slot) : true;
    if (owned === undefined) {
      this.held.push({ entry: e, slot, gen: e.gen, catchUp: true });
      return;
    }
    if (!owned) return;
    const interval = e.monitor.intervalMs;
    if (slot + interval - this.guardOf(interval) <= now) {
      this.opts.onSkip?.(e.monitor, slot, "late", 1);
      return;
    }
    if (e.busy) {
      this.opts.onSkip?.(e.monitor, slot, "overlap", 1);
      return;
    }
    e.busy = { slot };
    if (this.runs.size < this.opts.concurrency) this.start(e, slot, catchUp);
    else this.waiting.push({ entry: e, slot, catchUp });
  }

  private start(e: Entry, slot: number, catchUp: boolean): void {
    const controller = new AbortController();
    e.busy = { slot, controller };
    const startedAt = this.clock.now();
    const monitor = e.monitor;
    const job: Job = {
      monitor,
      slot,
      deadline: slot + monitor.intervalMs - this.guardOf(monitor.intervalMs),
      startedAt,
      lagMs: startedAt - slot,
      catchUp,
      signal: controller.signal,
    };
    this.opts.onStart?.(job);
    const run: Promise<void> = Promise.resolve()
      .then(() => this.opts.run(job))
      .catch((err) => this.opts.onError?.(monitor, err))
      .finally(() => {
        this.runs.delete(run);
        e.busy = undefined;
        this.startWaiting();
      });
    this.runs.add(run);
  }

  /** Starts waiting slots in order while runs are free; a slot whose window ended meanwhile is skipped. */
  private startWaiting(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    while (this.runs.size < this.opts.concurrency && this.waitingHead < this.waiting.length) {
      const { entry, slot, catchUp } = this.waiting[this.waitingHead]!;
      this.waiting[this.waitingHead++] = undefined as never;
      if (entry.removed) continue;
      const interval = entry.monitor.intervalMs;
      if (slot + interval - this.guardOf(interval) <= now) {
        entry.busy = undefined;
        this.opts.onSkip?.(entry.monitor, slot, "late", 1);
        continue;
      }
      this.start(entry, slot, catchUp);
    }
    // Compact now and then so the queue array does not grow without end.
    if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitingHead);
      this.waitingHead = 0;
    }
  }
}
