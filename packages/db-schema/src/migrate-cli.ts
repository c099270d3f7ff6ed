// `pnpm db:migrate`: also the compose `db-migrate` one-shot. Waits for the database, migrates, exits.

import { env, loadEnv, z } from "@vigil/config";
import { waitForSqld } from "@vigil/sqld";
import { createDb } from "./index";
import { migrate } from "./migrate";

const { DATABASE_URL: url, DATABASE_AUTH_TOKEN } = loadEnv(
  z.object({ DATABASE_URL: env.DATABASE_URL, DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN }),
  "db-migrate",
);
try {
  if (url.startsWith("http")) await waitForSqld(url, Number(process.env.DATABASE_WAIT_MS ?? 60_000));
  const db = createDb(url, DATABASE_AUTH_TOKEN);
  const encrypted = await migrate(db);
  db.$client.close();
  console.log(`db-migrate: ${url} is up to date`);
  // Rotation: every secret now reads under the first key id of VIGIL_SECRET_KEY.
  if (encrypted === null) console.log("db-migrate: VIGIL_SECRET_KEY is not set: stored secrets were not encrypted");
  else if (encrypted > 0) console.log(`db-migrate: ${encrypted} stored secrets (re-)encrypted under the first key id of VIGIL_SECRET_KEY`);
} catch (err) {
  // drizzle's message is the failed query; what went wrong (e.g. sqld's 401) is in its cause.
  let cause = err as Error;
  while (cause.cause instanceof Error) cause = cause.cause;
  console.error(`db-migrate: ${cause.message}`);
  process.exit(1);
}
