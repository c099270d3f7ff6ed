import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CHECK_STATUSES } from "@vigil/api-contract";
import { type DbKeys, ensureDbKeys, type RunningSqld, startSqld } from "@vigil/sqld";
import { freePort } from "@vigil/testing";
import { and, inArray, isNull, sql } from "drizzle-orm";
import { checkResult, checkResultRow, createDb, type Db, monitorEvaluation } from "./index";
import { migrate } from "./migrate";
import { generateSecretKey, SECRET_KEY_VAR } from "./secrets";

export { freePort };

export interface TestDatabase {
  url: string;
  db: Db;
  /** The running server; `restart()` replaces it. */
  sqld: RunningSqld;
  dir: string;
  /** Whether any file sqld keeps (database, WAL, metadata) holds `text`, as bytes. */
  onDisk(text: string): boolean;
  /** With `auth`: the key files and the services' token, which `db` already sends. */
  keys?: DbKeys;
  /** What a service started against this database needs: DATABASE_URL, and DATABASE_AUTH_TOKEN with `auth`. */
  env: { DATABASE_URL: string; DATABASE_AUTH_TOKEN?: string };
  /** Starts sqld again on the same file and port (stopping it first if it runs): clients keep their url. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real sqld on a loopback port with a fresh, migrated database; `auth`: JWT auth on, as deployments run it.
 * Secrets need a key: without one in the environment the process gets a random VIGIL_SECRET_KEY, which the
 * services it spawns inherit.
 */
export async function startTestDatabase(options: { auth?: boolean } = {}): Promise<TestDatabase> {
  process.env[SECRET_KEY_VAR] ||= generateSecretKey();
  const dir = mkdtempSync(join(tmpdir(), "vigil-sqld-"));
  const keys = options.auth ? ensureDbKeys(join(dir, "keys")) : undefined;
  const opts = { dbPath: join(dir, "data.sqld"), httpPort: await freePort(), authKeyFile: keys?.publicKeyFile };
  const sqld = await startSqld(opts);
  const db = createDb(sqld.url, keys?.token);
  await migrate(db);
  const t: TestDatabase = {
    url: sqld.url,
    db,
    sqld,
    dir,
    onDisk: (text) => filesUnder(dir).some((bytes) => bytes.includes(text)),
    keys,
    env: keys ? { DATABASE_URL: sqld.url, DATABASE_AUTH_TOKEN: keys.token } : { DATABASE_URL: sqld.url },
    async restart() {
      await t.sqld.stop();
      t.sqld = await startSqld(opts);
    },
    async close() {
      db.$client.close();
      await t.sqld.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)];
  });
}

/** A result as the `check_result` view shows it (an `id` or `region` given is ignored: the store makes them). */
export interface ResultFixture {
  workspaceId: number;
  monitorId: number;
  locationId: number;
  cronTimestamp: number;
  startedAt?: number;
  status: (typeof CHECK_STATUSES)[number];
  latencyMs: number;
  statusCode?: number | null;
  errorMessage?: string | null;
  attempts?: number;
  timings?: Record<string, number> | null;
  assertions?: unknown[] | null;
  evaluatedAt?: number | null;
  id?: string;
  region?: string;
}

/**
 * Stores results for a test or a bench as ingest would, in order; those with an `evaluatedAt` count as
 * evaluated: each monitor's watermark stops before its first one without.
 */
export async function insertResults(db: Db, rows: readonly ResultFixture[]): Promise<void> {
  // A monitor with a result still pending stays pending from there: a watermark cannot skip it.
  const monitorIds = [...new Set(rows.map((r) => r.monitorId))];
  const pendingFrom = new Map<number, number>();
  for (let i = 0; i < monitorIds.length; i += 500)
    for (const r of await db
      .selectDistinct({ monitorId: checkResult.monitorId })
      .from(checkResult)
      .where(and(inArray(checkResult.monitorId, monitorIds.slice(i, i + 500)), isNull(checkResult.evaluatedAt))))
      pendingFrom.set(r.monitorId, 0);
  const last = new Map<number, { through: number; at: number }>();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const ids = await db
      .insert(checkResultRow)
      .values(
        chunk.map((r) => ({
          workspaceId: r.workspaceId,
          monitorId: r.monitorId,
          cronTimestamp: r.cronTimestamp,
          locationId: r.locationId,
          status: r.status,
          latencyMs: r.latencyMs,
          startOffsetMs: (r.startedAt ?? r.cronTimestamp) - r.cronTimestamp,
          statusCode: r.statusCode ?? null,
          errorMessage: r.errorMessage ?? null,
          attempts: r.attempts ?? 1,
          timings: r.timings ?? null,
          assertions: r.assertions ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning({
        id: checkResultRow.id,
        monitorId: checkResultRow.monitorId,
        cron: checkResultRow.cronTimestamp,
        location: checkResultRow.locationId,
      });
    const byKey = new Map(ids.map((x) => [`${x.monitorId}:${x.cron}:${x.location}`, x.id]));
    for (const r of chunk) {
      const id = byKey.get(`${r.monitorId}:${r.cronTimestamp}:${r.locationId}`);
      if (id === undefined || pendingFrom.has(r.monitorId)) continue;
      if (r.evaluatedAt == null) pendingFrom.set(r.monitorId, id);
      else last.set(r.monitorId, { through: id, at: Math.max(r.evaluatedAt, last.get(r.monitorId)?.at ?? 0) });
    }
  }
  const marks = [...last].map(([monitorId, { through, at }]) => ({ monitorId, through, evaluatedAt: at }));
  for (let i = 0; i < marks.length; i += 500)
    await db
      .insert(monitorEvaluation)
      .values(marks.slice(i, i + 500))
      .onConflictDoUpdate({
        target: monitorEvaluation.monitorId,
        set: { through: sql`max(through, excluded.through)`, evaluatedAt: sql`excluded.evaluated_at` },
      });
}
