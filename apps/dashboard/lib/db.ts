import { createDb, type Db } from "@vigil/db-schema";

let db: Db | undefined;
/** One client per server process, created on first use so `next build` needs no database. */
export function getDb(): Db {
  db ??= createDb(process.env.DATABASE_URL || "http://127.0.0.1:8080", process.env.DATABASE_AUTH_TOKEN || undefined);
  return db;
}
