// The test clock: one seam through which a test moves every service's time. A test writes an offset (ms) into
// the file `VIGIL_TEST_CLOCK_FILE` names; each process started with it reads the offset on its next look at the
// time, so `Date.now()` and `new Date()` run that far ahead. Off unless the variable is set, and refused in the
// images (`VIGIL_IMAGE=1`, set by the Dockerfile): nothing in a deployment can move Vigil's clock.
import { readFileSync } from "node:fs";
import { EnvError } from "./errors";

export const TEST_CLOCK_VARIABLE = "VIGIL_TEST_CLOCK_FILE";

/** How often a process looks at the file again (a test that moves the clock waits at least this long). */
export const TEST_CLOCK_REFRESH_MS = 50;

let installed: { path: string } | null = null;

/** The offset the file holds: an integer number of milliseconds (missing or empty file: 0). */
export function readOffset(path: string): number {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  if (text === "") return 0;
  if (!/^-?\d+$/.test(text))
    throw new EnvError(TEST_CLOCK_VARIABLE, `names a file that must hold an offset in milliseconds (found "${text.slice(0, 40)}")`);
  return Number(text);
}

/**
 * Installs the test clock when `VIGIL_TEST_CLOCK_FILE` is set (idempotent: services sharing one process share
 * it). Returns whether it is on. Throws EnvError in an image or when the file holds something else than ms.
 */
export function installTestClock(env: Record<string, string | undefined> = process.env): boolean {
  const path = env[TEST_CLOCK_VARIABLE];
  if (!path) return false;
  if (env.VIGIL_IMAGE === "1") throw new EnvError(TEST_CLOCK_VARIABLE, "is for tests only and cannot be set in a Vigil image");
  if (installed) {
    if (installed.path !== path) throw new EnvError(TEST_CLOCK_VARIABLE, `is already ${installed.path} in this process`);
    return true;
  }
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let offset = readOffset(path);
  let lookedAt = realNow();
  const now = (): number => {
    const t = realNow();
    if (t - lookedAt >= TEST_CLOCK_REFRESH_MS) {
      lookedAt = t;
      try {
        offset = readOffset(path);
      } catch {
        // A half-written file keeps the last offset; the next look reads it whole.
      }
    }
    return t + offset;
  };
  class TestDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return now();
    }
  }
  // Calling Date() as a function gives the current time as a string, like the real one.
  const TestDateFn = new Proxy(TestDate, {
    apply: () => new TestDate().toString(),
  });
  globalThis.Date = TestDateFn as DateConstructor;
  installed = { path };
  return true;
}
