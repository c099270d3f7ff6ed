import type { ProbeLoad } from "./client";

const BUCKET_MS = 10_000;
const BUCKETS = 6;

/**
 * The probe's own lateness over the last minute: slots that came due and checks it could not run in time
 * (a whole slot missed, or no time left before the deadline). Overloaded: at least 5 such checks and 1 % of
 * the slots in that minute, i.e. it keeps missing deadlines rather than once.
 */
export class LoadTracker {
  private readonly buckets = Array.from({ length: BUCKETS }, () => ({ at: -1, due: 0, skipped: 0 }));
  private unreported = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private bucket() {
    const at = Math.floor(this.now() / BUCKET_MS);
    const b = this.buckets[at % BUCKETS]!;
    if (b.at !== at) Object.assign(b, { at, due: 0, skipped: 0 });
    return b;
  }

  due(n = 1): void {
    this.bucket().due += n;
  }

  /** `started`: the checks had started (and were counted due then) but found no time left for an attempt. */
  skipped(n = 1, started = false): void {
    const b = this.bucket();
    if (!started) b.due += n;
    b.skipped += n;
    this.unreported += n;
  }

  get overloaded(): boolean {
    const since = Math.floor(this.now() / BUCKET_MS) - BUCKETS + 1;
    let due = 0;
    let skipped = 0;
    for (const b of this.buckets) {
      if (b.at < since) continue;
      due += b.due;
      skipped += b.skipped;
    }
    return skipped >= 5 && skipped * 100 >= due;
  }

  /** What to tell the server now; the skipped count starts again from 0. */
  take(): ProbeLoad {
    const skipped = this.unreported;
    this.unreported = 0;
    return { skipped, overloaded: this.overloaded };
  }
}
