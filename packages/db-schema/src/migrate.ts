import { fileURLToPath } from "node:url";
import { migrate as drizzleMigrate } from "drizzle-orm/libsql/migrator";
import type { Db } from "./index";
import { encryptSecretRows } from "./secret-rows";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Applies committed migrations; already-applied ones are skipped, so it is safe to run every start.
 * With VIGIL_SECRET_KEY, then encrypts plaintext secrets and re-encrypts those under an older key id
 * (rotation); returns how many it wrote, or null without a key.
 */
export async function migrate(db: Db): Promise<number | null> {
  await drizzleMigrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return encryptSecretRows(db);
}
