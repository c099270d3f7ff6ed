import { readFile, rename, writeFile } from "node:fs/promises";
import type { Logger } from "@vigil/service";

/**
 * The time before which every slot this probe had to run was handled, kept in its data dir: a probe
 * restarted after a crash runs the slots that fell due while it was away (those whose window is still open).
 */
export class HandledSlots {
  private timer: NodeJS.Timeout | undefined;
  private last: number | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** The time kept by the previous run, if any. */
  async read(): Promise<number | undefined> {
    try {
      const kept = JSON.parse(await readFile(this.file, "utf8")) as { handledBefore?: unknown };
      return typeof kept.handledBefore === "number" && Number.isFinite(kept.handledBefore) ? kept.handledBefore : undefined;
    } catch {
      return undefined; // first start, or a torn file: the probe starts at the next slots, as before
    }
  }

  /** Keeps `now()` on disk every `everyMs` (a crash re-runs at most that much, which the server takes as duplicates). */
  start(now: () => number | undefined, everyMs = 1000): void {
    this.timer = setInterval(() => void this.keep(now()), everyMs);
    this.timer.unref();
  }

  /** Stops keeping the time as it moves: what a stopping probe cuts short is not handled. */
  hold(): void {
    clearInterval(this.timer);
  }

  async stop(final: number | undefined): Promise<void> {
    this.hold();
    await this.keep(final);
  }

  private keep(t: number | undefined): Promise<void> {
    if (t === undefined || t === this.last) return this.writing;
    this.last = t;
    this.writing = this.writing.then(async () => {
      const tmp = `${this.file}.tmp`;
      try {
        await writeFile(tmp, JSON.stringify({ handledBefore: t }));
        await rename(tmp, this.file);
      } catch (err) {
        this.logger.warn({ err, file: this.file }, "could not keep the handled slots on disk");
      }
    });
    return this.writing;
  }
}
