import { createDb, type Db } from "@vigil/db-schema";
import { getEnv } from "./env";

let db: Db | undefined;
/** One client per server process, created on first use so `next build` needs no database. */
export function getDb(): Db {
  if (!db) {
    const env = getEnv();
    db = createDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
  }
  return db;
}
