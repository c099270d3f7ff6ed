// `pnpm db:migrate`: also the compose `db-migrate` one-shot. Waits for the database, migrates, exits.

import { waitForSqld } from "@vigil/sqld";
import { createDb } from "./index";
import { migrate } from "./migrate";

const url = process.env.DATABASE_URL || "http://127.0.0.1:8080";
try {
  if (url.startsWith("http")) await waitForSqld(url, Number(process.env.DATABASE_WAIT_MS ?? 60_000));
  const db = createDb(url, process.env.DATABASE_AUTH_TOKEN || undefined);
  await migrate(db);
  db.$client.close();
  console.log(`db-migrate: ${url} is up to date`);
} catch (err) {
  console.error(`db-migrate: ${(err as Error).message}`);
  process.exit(1);
}
