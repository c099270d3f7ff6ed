// The database handle's type, below the client that makes one and the modules that take one.
import type { Client } from "@libsql/client/http";
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import type * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

/** A database handle or an open transaction on it: domain functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Conn = Db | Tx;
