// For tests and benches: ClickHouse in-process (chdb, the same engine as the server) behind @clickhouse/client.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClickHouseClient, createClient } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";

type Connection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

export interface ChdbClient {
  client: ClickHouseClient;
  dir: string;
  close(): Promise<void>;
}

/** A client on a fresh chdb data directory. chdb binds one directory per process: one of these per test file. */
export function startChdb(): ChdbClient {
  const dir = mkdtempSync(join(tmpdir(), "vigil-chdb-"));
  // chdb implements the client's Connection contract from its own copy of @clickhouse/client-common.
  const client = createClient({ connection: createChdbConnection({ path: dir }) as unknown as Connection });
  return {
    client,
    dir,
    async close() {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
