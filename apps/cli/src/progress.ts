import type { Io } from "./io";

/** Above this many monitors an upload says what it is doing even when stderr is not a terminal. */
export const PROGRESS_THRESHOLD = 50;

/**
 * A progress line on stderr while one long request runs: redrawn with the elapsed time on a
 * terminal, a start and an end line otherwise. Returns the function that ends it.
 */
export function startProgress(io: Io, label: string, count: number): (outcome: string) => void {
  const tty = io.stderrIsTty === true;
  if (!tty && count <= PROGRESS_THRESHOLD) return () => {};
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  if (!tty) {
    io.stderr(`${label}...\n`);
    return (outcome) => io.stderr(`${label}: ${outcome} after ${elapsed()}\n`);
  }
  const draw = () => io.stderr(`\r\x1b[2K${label}... ${elapsed()}`);
  draw();
  const timer = setInterval(draw, 200);
  timer.unref();
  return (outcome) => {
    clearInterval(timer);
    io.stderr(`\r\x1b[2K${label}: ${outcome} after ${elapsed()}\n`);
  };
}
