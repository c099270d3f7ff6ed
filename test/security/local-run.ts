// The local run's shape for attack replays: sqld, Redis, the server and the probe on one host (server and probe
// in this process, as `pnpm start` runs them), the probe told the instance's own URLs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "@vigil/config";
import { createPrivateLocation } from "@vigil/core";
import { workspace } from "@vigil/db-schema";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { ProbeEnv, startProbe } from "@vigil/private-location";
import { startTestServer, type TestServer } from "@vigil/server/testing";
import { until } from "@vigil/testing";
import { afterAll, beforeAll, expect } from "vitest";

export const REDIS_PORT = 6379;

export interface LocalRun {
  database: TestDatabase;
  server: TestServer;
  sqldPort: number;
  /** Test now of a monitor draft (in region iad): its check result. */
  testNow(monitor: Record<string, unknown>): Promise<{ status: string; errorMessage?: string }>;
  /** Workspace names: an attacker's UPDATE would show here. */
  workspaceNames(): Promise<(string | null)[]>;
  close(): Promise<void>;
}

export async function startLocalRun(): Promise<LocalRun> {
  const database = await startTestDatabase();
  const sqldPort = Number(new URL(database.url).port);
  const server = await startTestServer({}, database);
  const { key } = await createPrivateLocation(database.db, server.workspaceId, { name: "local", region: "iad" }, "operator");
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-attack-"));
  const probe = await startProbe(
    parseEnv(ProbeEnv, {
      SERVICE_KEY: key,
      SERVICE_INGEST_URL: server.url,
      PORT: "0",
      HOST: "127.0.0.1",
      PROBE_DATA_DIR: dataDir,
      PROBE_INSTANCE_URLS: `database=${database.url},redis=redis://127.0.0.1:${REDIS_PORT}`,
      LOG_LEVEL: "silent",
    }),
    { handleSignals: false },
  );
  return {
    database,
    server,
    sqldPort,
    async testNow(monitor) {
      const body = { name: "innocent health check", frequency: "1m", regions: ["iad"], retry: 0, ...monitor };
      // 409 until the probe has picked up its location.
      const res = await until(
        "the probe to answer Test now",
        async () => {
          const r = await server.call("POST", "/v1/monitors/test", body);
          return r.status === 409 ? undefined : r;
        },
        30_000,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result;
    },
    async workspaceNames() {
      return (await database.db.select({ name: workspace.name }).from(workspace)).map((w) => w.name);
    },
    async close() {
      await probe.close();
      await server.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** In a test file: the local run started before its tests (handed to `started`) and closed after them. */
export function useLocalRun(started: (run: LocalRun) => void): void {
  let run: LocalRun | undefined;
  beforeAll(async () => {
    run = await startLocalRun();
    started(run);
  }, 60_000);
  afterAll(async () => {
    await run?.close();
  });
}
