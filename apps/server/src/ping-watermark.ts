// What the server's liveness row vouches for: every ping that arrived before that time is stored. A ping
// still on its way to the database (a slow write, a busy machine) holds the mark back, so workflows never
// read "alive after the deadline" while the ping that meets the deadline is still in flight.
/** A request already on the socket but not yet parsed is not tracked: the mark stays this far behind now. */
export const PARSE_SLACK_MS = 1000;

export class PingWatermark {
  private readonly open = new Map<number, number>();
  private next = 0;

  /** A ping arrived at `at`; returns its handle for `end`. */
  begin(at: number): number {
    const id = this.next++;
    this.open.set(id, at);
    return id;
  }

  end(id: number): void {
    this.open.delete(id);
  }

  /** The time through which every arrived ping is settled: a second ago, or just before the oldest one in flight. */
  through(now: number): number {
    let mark = now - PARSE_SLACK_MS;
    for (const at of this.open.values()) if (at - 1 < mark) mark = at - 1;
    return mark;
  }
}
