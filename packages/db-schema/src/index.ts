import { type Client, createClient, type InArgs } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema";

export * from "./schema";
export { schema };
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

const REQUEST_TIMEOUT_MS = 30_000;

/** One client per process; `url` is `http://…` (sqld) in every app, `file:` only in unit tests. */
export function createDb(url: string, authToken?: string): Db {
  // A request sqld never answers must fail (and be retried by its caller), not hang the caller forever.
  const fetchWithTimeout = (input: RequestInfo | URL, init?: RequestInit) =>
    fetch(input, {
      ...init,
      signal: init?.signal
        ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  const client = createClient({ url, authToken, fetch: url.startsWith("http") ? fetchWithTimeout : undefined });
  return drizzle(client, { schema }) as Db;
}

/** A database handle or an open transaction on it: domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Conn = Db | Tx;

const writeQueues = new WeakMap<Client, Promise<unknown>>();

/**
 * Runs drizzle queries as one atomic write batch (BEGIN IMMEDIATE), one round trip. drizzle's own
 * `db.batch` opens a deferred transaction, which concurrent writers turn into SQLITE_BUSY. Batches
 * of one process go to the database one at a time: SQLite serializes writers anyway, and many
 * writers waiting on its lock inside sqld cost far more than waiting here.
 */
export async function writeBatch(db: Db, queries: { toSQL(): { sql: string; params: unknown[] } }[]) {
  const stmts = queries.map((q) => {
    const { sql, params } = q.toSQL();
    return { sql, args: params as InArgs };
  });
  const client = db.$client;
  const previous = writeQueues.get(client) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => client.batch(stmts, "write"));
  writeQueues.set(client, run);
  return run;
}
