import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSqld, startSqld } from "@vigil/sqld";
import { freePort } from "@vigil/testing";
import { createDb, type Db } from "./index";
import { migrate } from "./migrate";

export { freePort };

export interface TestDatabase {
  url: string;
  db: Db;
  sqld: RunningSqld;
  dir: string;
  close(): Promise<void>;
}

/** A real sqld on a loopback port with a fresh, migrated database. */
export async function startTestDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "vigil-sqld-"));
  const sqld = await startSqld({ dbPath: join(dir, "data.sqld"), httpPort: await freePort() });
  const db = createDb(sqld.url);
  await migrate(db);
  return {
    url: sqld.url,
    db,
    sqld,
    dir,
    async close() {
      db.$client.close();
      await sqld.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
