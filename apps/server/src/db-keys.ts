// The compose `db-keys` one-shot (`node /app/apps/server/dist/db-keys.js`): makes the database's JWT key pair
// and the services' token in DB_KEYS_DIR (a volume) on the first run, keeps them after. sqld reads
// db-jwt.pub (SQLD_AUTH_JWT_KEY_FILE), the apps db-token (DATABASE_AUTH_TOKEN_FILE); db-jwt.key stays private.
// Rotation: remove the volume's files (or the volume), run it again, restart everything.
import { ensureDbKeys } from "@vigil/sqld";

const dir = process.env.DB_KEYS_DIR || "/keys";
try {
  const keys = ensureDbKeys(dir);
  console.log(`db-keys: ${keys.publicKeyFile}, ${keys.privateKeyFile} and ${keys.tokenFile} are ready`);
} catch (err) {
  console.error(`db-keys: DB_KEYS_DIR ${dir}: ${(err as Error).message}`);
  process.exit(1);
}
