// What to do when sqld is busy or away: below the client (index) and every writer that must outlast an outage.
import { setTimeout as sleep } from "node:timers/promises";

/** SQLite's lock was not ours in time; the work was not done and may be retried. */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
}

/**
 * A write that did not start (or was rolled back by sqld) because another writer held the lock.
 * "cannot rollback - no transaction is active" is what is left when sqld already ended the
 * transaction, e.g. after its own timeout.
 */
export function isDatabaseBusy(err: unknown): boolean {
  return causes(err).some(
    (e) =>
      e.code === "SQLITE_BUSY" ||
      /SQLITE_BUSY|database is locked|transaction timed out|cannot rollback - no transaction is active/i.test(e.message ?? ""),
  );
}

/** An error and the causes it wraps (drizzle wraps libSQL's, which wraps fetch's). */
function causes(err: unknown) {
  const chain: { message?: string; code?: string }[] = [];
  for (let e = err as { message?: string; code?: string; cause?: unknown } | undefined; e && chain.length < 5; e = e.cause as typeof e)
    chain.push(e);
  return chain;
}

/** The database judged the statement itself (a constraint, bad SQL): sending it again cannot help. */
export const isRefusal = (err: unknown) =>
  causes(err).some((e) => /^(SQLITE_CONSTRAINT|SQL_INPUT_ERROR|SQL_PARSE_ERROR)/.test(e.code ?? ""));

/**
 * Runs a write that must outlast a passing database outage (sqld restarting, the network blinking):
 * tries again with jittered backoff from 100 ms up to 3 s for up to `forMs` (a minute: a restart
 * takes seconds), and once more when `signal` aborts. A refusal is not retried. Throws the last error.
 */
export async function retryThroughOutage<T>(write: () => Promise<T>, opts: { forMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const deadline = Date.now() + (opts.forMs ?? 60_000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const pause = Math.min(100 * 2 ** attempt, 3000) * (0.5 + Math.random());
      if (isRefusal(err) || opts.signal?.aborted || Date.now() + pause > deadline) throw err;
      // An abort cuts the pause short: the next try is the last.
      await sleep(pause, undefined, { signal: opts.signal }).catch(() => {});
    }
  }
}

const BUSY_RETRIES = 6;

export async function retryBusy<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isDatabaseBusy(err)) throw err;
      if (attempt >= BUSY_RETRIES) throw new DatabaseBusyError("the database stayed busy; retry shortly", { cause: err });
      // Jittered, doubling from 25 ms: ~3 s in all before giving up.
      await new Promise((r) => setTimeout(r, (25 << attempt) * (0.5 + Math.random())));
    }
  }
}
