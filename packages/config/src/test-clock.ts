// The test side of the test clock: a file a test writes the offset into, and the variable that points the
// services at it. See clock.ts and docs/architecture.md ("Moving the services' clock").
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_CLOCK_REFRESH_MS, TEST_CLOCK_VARIABLE } from "./clock";

export interface TestClock {
  /** Spread into a service's environment to put it on this clock. */
  readonly env: Record<string, string>;
  /** How far ahead of the real time the services run, in ms. */
  readonly offsetMs: number;
  /** Moves the services' time `ms` further (never back), and returns once every process sees it. */
  advance(ms: number): Promise<void>;
  /** Sets the offset; resolves once every process has looked at the file again. */
  set(offsetMs: number): Promise<void>;
  /** The services' time now (the real time plus the offset). */
  now(): number;
  close(): void;
}

export function testClock(): TestClock {
  const dir = mkdtempSync(join(tmpdir(), "vigil-clock-"));
  const file = join(dir, "offset");
  let offsetMs = 0;
  const write = (ms: number) => {
    // Written aside then renamed: a process never reads half a number.
    writeFileSync(`${file}.tmp`, String(Math.round(ms)));
    renameSync(`${file}.tmp`, file);
  };
  write(0);
  const clock: TestClock = {
    env: { [TEST_CLOCK_VARIABLE]: file },
    get offsetMs() {
      return offsetMs;
    },
    async set(ms) {
      offsetMs = Math.round(ms);
      write(offsetMs);
      await new Promise((r) => setTimeout(r, TEST_CLOCK_REFRESH_MS * 2));
    },
    advance: (ms) => {
      if (!(ms >= 0)) throw new RangeError(`the test clock only moves forward (asked ${ms} ms)`);
      return clock.set(offsetMs + ms);
    },
    now: () => Date.now() + offsetMs,
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
  return clock;
}
