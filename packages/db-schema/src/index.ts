import { type Client, createClient } from "@libsql/client";
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
