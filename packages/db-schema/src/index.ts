import { type Client, createClient, type InArgs } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema";

export * from "./schema";
export { schema };
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

/** One client per process; `url` is `http://…` (sqld) in every app, `file:` only in unit tests. */
export function createDb(url: string, authToken?: string): Db {
  const client = createClient({ url, authToken });
  return drizzle(client, { schema }) as Db;
}

/** A database handle or an open transaction on it: domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Conn = Db | Tx;

/**
 * Runs drizzle queries as one atomic write batch (BEGIN IMMEDIATE), one round trip. drizzle's own
 * `db.batch` opens a deferred transaction, which concurrent writers turn into SQLITE_BUSY.
 */
export async function writeBatch(db: Db, queries: { toSQL(): { sql: string; params: unknown[] } }[]) {
  const stmts = queries.map((q) => {
    const { sql, params } = q.toSQL();
    return { sql, args: params as InArgs };
  });
  return db.$client.batch(stmts, "write");
}
