import { setTimeout as sleep } from "node:timers/promises";
// The HTTP client only: every process reaches sqld over HTTP, and the full client loads the native SQLite
// library (~8 MB resident in each process) for file URLs nobody uses.
import { type Client, createClient, type InArgs } from "@libsql/client/http";
import { is, SQL } from "drizzle-orm";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/http";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export { withoutQueryParams } from "./query-errors";

export * from "./schema";
export { assertSecretsReadable, exitOnSecretKeyError, openSecrets, unreadableSecrets } from "./secret-rows";
export {
  currentKeyring,
  generateSecretKey,
  hashToken,
  parseSecretKey,
  SECRET_KEY_VAR,
  SecretKeyError,
  type SecretKeyring,
  setSecretKeyring,
} from "./secrets";
export { schema };
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

const REQUEST_TIMEOUT_MS = 30_000;

/** One client per process; `url` is sqld's HTTP address (`http://…`, `https://…`). */
export function createDb(url: string, authToken?: string, opts: { uncompressed?: boolean } = {}): Db {
  // sqld gzips its answers when asked, and fetch asks: on a loopback or private network that is CPU spent
  // twice (sqld compressing, us inflating) for nothing. Only a named host across the internet keeps it. The
  // services opt in; the web apps keep fetch's defaults (Next wraps fetch, and there replacing a request's
  // headers broke the dashboard's requests) and their traffic is light.
  const host = new URL(url).hostname;
  const near = opts.uncompressed === true && (!host.includes(".") || /^(\d+\.){3}\d+$/.test(host) || host.startsWith("["));
  const plain = (input: RequestInfo | URL, init?: RequestInit): RequestInit => {
    if (!near) return {};
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    headers.set("accept-encoding", "identity");
    return { headers };
  };
  // A request sqld never answers must fail (and be retried by its caller), not hang the caller forever.
  const fetchWithTimeout = (input: RequestInfo | URL, init?: RequestInit) =>
    fetch(input, {
      ...init,
      ...plain(input, init),
      signal: init?.signal
        ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  const client = createClient({ url, authToken, fetch: fetchWithTimeout });
  const db = drizzle(client, { schema }) as Db;
  // Interactive transactions meet ingest's write batches on SQLite's one lock: retry a busy start
  // here, once for every caller, instead of answering 500 (or a rollback error hiding the cause).
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) => retryBusy(() => transaction(fn, config))) as Db["transaction"];
  return db;
}

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
const isRefusal = (err: unknown) => causes(err).some((e) => /^(SQLITE_CONSTRAINT|SQL_INPUT_ERROR|SQL_PARSE_ERROR)/.test(e.code ?? ""));

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

async function retryBusy<T>(run: () => Promise<T>): Promise<T> {
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

/** A database handle or an open transaction on it: domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Conn = Db | Tx;

// Turns a conditional statement written with drizzle's `sql` (INSERT … SELECT … WHERE) into a batch step.
const dialect = new SQLiteAsyncDialect();
const writeQueues = new WeakMap<Client, Promise<unknown>>();

/**
 * Runs drizzle queries as one atomic write batch (BEGIN IMMEDIATE), one round trip. drizzle's own
 * `db.batch` opens a deferred transaction, which concurrent writers turn into SQLITE_BUSY. Batches
 * of one process go to the database one at a time: SQLite serializes writers anyway, and many
 * writers waiting on its lock inside sqld cost far more than waiting here.
 */
export async function writeBatch(db: Db, queries: ({ toSQL(): { sql: string; params: unknown[] } } | SQL)[]) {
  const stmts = queries.map((q) => {
    const { sql, params } = is(q, SQL) ? dialect.sqlToQuery(q) : q.toSQL();
    return { sql, args: params as InArgs };
  });
  const client = db.$client;
  const previous = writeQueues.get(client) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => client.batch(stmts, "write"));
  writeQueues.set(client, run);
  return run;
}
