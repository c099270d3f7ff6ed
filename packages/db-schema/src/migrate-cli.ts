// `pnpm db:migrate`: also the compose `db-migrate` one-shot. Waits for the database, migrates, exits.

import { waitForSqld } from "@vigil/sqld";
import { createDb } from "./index";
import { migrate } from "./migrate";
import { SecretKeyError } from "./secrets";

const url = process.env.DATABASE_URL || "http://127.0.0.1:8080";
try {
  if (url.startsWith("http")) await waitForSqld(url, Number(process.env.DATABASE_WAIT_MS ?? 60_000));
  const db = createDb(url, process.env.DATABASE_AUTH_TOKEN || undefined);
  const encrypted = await migrate(db);
  db.$client.close();
  console.log(`db-migrate: ${url} is up to date`);
  // Rotation: every secret now reads under the first key id of VIGIL_SECRET_KEY.
  if (encrypted === null) console.log("db-migrate: VIGIL_SECRET_KEY is not set: stored secrets were not encrypted");
  else if (encrypted > 0) console.log(`db-migrate: ${encrypted} stored secrets (re-)encrypted under the first key id of VIGIL_SECRET_KEY`);
} catch (err) {
  console.error(`db-migrate: ${(err as Error).message}`);
  if (err instanceof SecretKeyError) process.exit(1);
  process.exit(1);
}
