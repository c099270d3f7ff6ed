// Upgrading a database that holds results from before the compact result store.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSqld, startSqld } from "@vigil/sqld";
import { freePort } from "@vigil/testing";
import { eq } from "drizzle-orm";
import { migrate as drizzleMigrate } from "drizzle-orm/libsql/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, generateSecretKey, monitor, notificationChannel, session } from "./index";
import { MIGRATIONS_FOLDER, migrate } from "./migrate";

const dir = mkdtempSync(join(tmpdir(), "vigil-upgrade-"));
let sqld: RunningSqld;
let db: Db;
beforeAll(async () => {
  process.env.VIGIL_SECRET_KEY ||= generateSecretKey();
  sqld = await startSqld({ dbPath: join(dir, "data.sqld"), httpPort: await freePort() });
  db = createDb(sqld.url);
  // The migrations as they were before the compact store.
  const before = join(dir, "before");
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, "meta/_journal.json"), "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < "0008");
  writeFileSync(join(before, "meta/_journal.json"), JSON.stringify(journal));
  await drizzleMigrate(db, { migrationsFolder: before });
  // Secrets and a session as they were stored before: in the clear.
  await db.$client.executeMultiple(`
    insert into workspace (id, name) values (2, 'legacy');
    insert into monitor (id, workspace_id, kind, frequency, regions, url, headers, otel_headers)
      values (20, 2, 'http', '1m', '["ams"]', 'https://api.example.com', '{"authorization":"Bearer legacy-header"}', '{"x-key":"legacy-otlp"}');
    insert into notification_channel (id, workspace_id, name, kind, config) values (21, 2, 'hook', 'webhook', '{"url":"https://hooks.example.com/legacy"}');
    insert into user (id, email) values ('u-legacy', 'legacy@example.com');
    insert into session (sessionToken, userId, expires) values ('raw-legacy-token', 'u-legacy', 9999999999999);
  `);
});
afterAll(async () => {
  db?.$client.close();
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("upgrading to the compact result store", () => {
  it("keeps every stored result with its status, times and details, and what evaluation had not read yet stays pending", async () => {
    await db.$client.executeMultiple(`
      insert into workspace (id, name) values (1, 'w');
      insert into private_location (id, workspace_id, name, region, key_prefix, key_hash) values (1, 1, 'a', 'ams', 'p', 'h');
      insert into monitor (id, workspace_id, kind, frequency, regions, status, status_cron_timestamp) values (7, 1, 'tcp', '30s', '["ams"]', 'error', 60000);
      insert into check_result (id, workspace_id, monitor_id, location_id, region, cron_timestamp, started_at, status, latency_ms, status_code, error_message, attempts, timings, evaluated_at)
        values ('01A', 1, 7, 1, 'ams', 30000, 30012, 'success', 5, null, null, 1, '{"connect":5}', 31000),
               ('01B', 1, 7, 1, 'ams', 60000, 60003, 'error', 0, null, 'refused', 4, '{"connect":0}', 61000),
               ('01C', 1, 7, 1, 'ams', 90000, 90001, 'degraded', 900, null, null, 1, '{"connect":900}', null);
    `);
    await migrate(db);
    const rows = await db.$client.execute(
      "select id, workspace_id, region, cron_timestamp, started_at, status, latency_ms, error_message, attempts, timings, evaluated_at is not null as evaluated from check_result order by id",
    );
    expect(rows.rows.map((r) => ({ ...r }))).toEqual([
      {
        id: 1,
        workspace_id: 1,
        region: "ams",
        cron_timestamp: 30000,
        started_at: 30012,
        status: "success",
        latency_ms: 5,
        error_message: null,
        attempts: 1,
        timings: null,
        evaluated: 1,
      },
      {
        id: 2,
        workspace_id: 1,
        region: "ams",
        cron_timestamp: 60000,
        started_at: 60003,
        status: "error",
        latency_ms: 0,
        error_message: "refused",
        attempts: 4,
        timings: '{"connect":0}',
        evaluated: 1,
      },
      {
        id: 3,
        workspace_id: 1,
        region: "ams",
        cron_timestamp: 90000,
        started_at: 90001,
        status: "degraded",
        latency_ms: 900,
        error_message: null,
        attempts: 1,
        timings: '{"connect":900}',
        evaluated: 0,
      },
    ]);
    const [mark] = (await db.$client.execute("select through, cron from monitor_evaluation where monitor_id = 7")).rows;
    expect({ ...mark }).toEqual({ through: 2, cron: 60000 });
  });
});

describe("upgrading to secrets at rest", () => {
  it("encrypts the secrets stored in the clear, keeps their values, and ends the sessions stored raw", async () => {
    await migrate(db);
    const raw = await db.$client.execute(
      "select m.headers, m.otel_headers, c.config from monitor m, notification_channel c where m.id = 20 and c.id = 21",
    );
    for (const value of Object.values(raw.rows[0]!)) expect(String(value)).toMatch(/^vgl1:/);
    const [m] = await db.select().from(monitor).where(eq(monitor.id, 20));
    expect(m!.headers).toEqual({ authorization: "Bearer legacy-header" });
    expect(m!.otelHeaders).toEqual({ "x-key": "legacy-otlp" });
    const [c] = await db.select().from(notificationChannel).where(eq(notificationChannel.id, 21));
    expect(c!.config).toEqual({ url: "https://hooks.example.com/legacy" });
    expect(await db.select().from(session)).toEqual([]);
  });
});
