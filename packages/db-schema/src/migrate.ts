import { fileURLToPath } from "node:url";
import { migrate as drizzleMigrate } from "drizzle-orm/libsql/migrator";
import type { Db } from "./index";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle", import.meta.url));

/** Applies committed migrations; already-applied ones are skipped, so it is safe to run every start. */
export async function migrate(db: Db): Promise<void> {
  await drizzleMigrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
