import { type ClickHouseClient, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { analyticsExport } from "@vigil/db-schema";
import { freePort, startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickhouseAnalytics } from "./clickhouse";
import { analyticsContract, BASE, D, H, insertRows, type ResultRow, result, seedWorkspace } from "./contract";
import { deployAnalytics } from "./deploy";
import { AnalyticsUnavailableError } from "./errors";
import { exportResults } from "./export";
import { analyticsFromEnv, isClickHouse } from "./factory";
import { type ChdbClient, startChdb } from "./testing";

let t: TestDatabase;
let chdb: ChdbClient;
let client: ClickHouseClient;
const DATABASE = "vigil_test";

beforeAll(async () => {
  t = await startTestDatabase();
  await seedWorkspace(t.db);
  chdb = startChdb();
  client = chdb.client;
  await deployAnalytics(client, DATABASE);
});
afterAll(async () => {
  await chdb?.close();
  await t?.close();
});

const ch = () => clickhouseAnalytics({ client, db: t.db, database: DATABASE });
const count = async (query: string) => Number((await (await client.query({ query, format: "JSONEachRow" })).json<{ n: string }>())[0]!.n);

analyticsContract("ClickHouse", {
  analytics: ch,
  load: async (rows) => {
    await insertRows(t.db, rows);
    const out = await exportResults(t.db, ch(), { batch: 64 });
    expect(out.behind).toBe(0);
  },
});

describe("ClickHouse datasources", () => {
  it("deploying again changes nothing and reports every migration as already applied", async () => {
    const again = await deployAnalytics(client, DATABASE);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(["0001_check_results"]);
    expect(await count(`SELECT count() AS n FROM ${DATABASE}.schema_migrations`)).toBe(1);
    const tables = await (
      await client.query({ query: `SELECT name FROM system.tables WHERE database = '${DATABASE}' ORDER BY name`, format: "JSONEachRow" })
    ).json<{ name: string }>();
    expect(tables.map((x) => x.name)).toEqual([
      "check_results",
      "check_results_daily",
      "check_results_daily_mv",
      "check_results_hourly",
      "check_results_hourly_mv",
      "schema_migrations",
    ]);
  });

  it("keeps status, status code, phase timings and the error message of each result", async () => {
    const r = {
      // A monitor no other case of this file uses (the shared contract's cases write 57's results too).
      ...result(47, 2, BASE + 5 * D, "error", 1234),
      statusCode: 503,
      timings: { dns: 1.5, connect: 20, tls: 30, firstByte: 400 },
    };
    await insertRows(t.db, [r]);
    await exportResults(t.db, ch());
    const [row] = await (
      await client.query({
        query: `SELECT id, workspace_id, location_id, region, toUnixTimestamp64Milli(cron_timestamp) AS cron, status, latency_ms, status_code, error_message, timings
          FROM ${DATABASE}.check_results WHERE monitor_id = 47`,
        format: "JSONEachRow",
      })
    ).json<Record<string, unknown>>();
    // 64-bit integers come quoted over HTTP and as numbers from chdb: compare them as numbers.
    expect({ ...row, cron: Number(row?.cron) }).toEqual({
      id: expect.stringMatching(/^\d+$/), // the libSQL row's id
      workspace_id: 1,
      location_id: 2,
      region: "ams",
      cron: BASE + 5 * D,
      status: "error",
      latency_ms: 1234,
      status_code: 503,
      error_message: "connect ECONNREFUSED",
      timings: { dns: 1.5, connect: 20, tls: 30, firstByte: 400 },
    });
  });
});

describe("getting results into ClickHouse", () => {
  it("a result block sent twice is counted once, in raw reads and in the hourly and daily views", async () => {
    const rows = [result(67, 1, BASE + 2 * D, "success", 10), result(67, 1, BASE + 2 * D + 60_000, "error", 20)];
    const toExported = (r: ResultRow) => ({ ...r, attempts: 1 });
    await ch().insertResults(rows.map(toExported));
    await ch().insertResults(rows.map(toExported));
    const expected = { total: 2, success: 1, degraded: 0, error: 1, uptime: 0.5 };
    // Whole buckets come from the views; a mid-hour range reads raw rows.
    expect(await ch().series({ monitorId: 67, from: BASE + 2 * D, to: BASE + 2 * D + H, bucket: "hour" })).toMatchObject([expected]);
    expect(await ch().series({ monitorId: 67, from: BASE + 2 * D, to: BASE + 2 * D + 30 * 60_000, bucket: "hour" })).toMatchObject([
      expected,
    ]);
    expect(await ch().dailyUptime({ monitorIds: [67], from: BASE + 2 * D, to: BASE + 3 * D })).toMatchObject([expected]);
  });

  it("a ClickHouse outage keeps the watermark, loses nothing, and the backlog follows on recovery", async () => {
    const closed = createClient({
      url: `http://127.0.0.1:${await freePort()}`,
      request_timeout: 2_000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const down = clickhouseAnalytics({ client: closed, db: t.db, database: DATABASE, where: "127.0.0.1" });
    await exportResults(t.db, ch());
    const before = (await t.db.select().from(analyticsExport))[0]!;
    const rows: ResultRow[] = [];
    for (let i = 0; i < 250; i++) rows.push(result(77, 1 + (i % 2), BASE + 3 * D + i * 60_000, i % 10 === 0 ? "error" : "success", i));
    await insertRows(t.db, rows);

    await expect(exportResults(t.db, down, { batch: 100 })).rejects.toBeInstanceOf(AnalyticsUnavailableError);
    const during = (await t.db.select().from(analyticsExport))[0]!;
    expect(during.exportedThrough).toBe(before.exportedThrough);
    expect(during.pendingThrough).toBeGreaterThan(before.exportedThrough); // the batch in flight, re-sent as is
    // Reads say plainly what is wrong instead of failing the page.
    await expect(down.dailyUptime({ monitorIds: [77], from: BASE, to: BASE + 10 * D })).rejects.toThrow(
      /^Analytics \(ClickHouse at 127\.0\.0\.1\) is unreachable/,
    );
    await closed.close();

    const back = await exportResults(t.db, ch(), { batch: 100 });
    expect(back).toMatchObject({ exported: 250, behind: 0 });
    expect(await ch().dailyUptime({ monitorIds: [77], from: BASE + 3 * D, to: BASE + 4 * D })).toEqual([
      { monitorId: 77, day: BASE + 3 * D, total: 250, success: 225, degraded: 0, error: 25, uptime: 0.9 },
    ]);
    expect(await count(`SELECT count() AS n FROM ${DATABASE}.check_results WHERE monitor_id = 77`)).toBe(250);
  });

  it("a batch ClickHouse took but whose acknowledgement was lost is not counted twice", async () => {
    const rows = [result(87, 1, BASE + 4 * D, "success", 5), result(87, 1, BASE + 4 * D + 60_000, "degraded", 900)];
    await insertRows(t.db, rows);
    // ClickHouse takes the block, then the answer is lost: the watermark still says pending.
    let calls = 0;
    const lossy = {
      async insertResults(block: Parameters<ReturnType<typeof ch>["insertResults"]>[0]) {
        await ch().insertResults(block);
        calls++;
        throw new AnalyticsUnavailableError("connection reset after the insert");
      },
    };
    await expect(exportResults(t.db, lossy)).rejects.toBeInstanceOf(AnalyticsUnavailableError);
    expect(calls).toBe(1);
    // A new result arrives before the retry: the retry re-sends the same block first, then the new one.
    await insertRows(t.db, [result(87, 1, BASE + 4 * D + 120_000, "success", 7)]);
    expect(await exportResults(t.db, ch())).toMatchObject({ exported: 3, behind: 0 });
    expect(await ch().dailyUptime({ monitorIds: [87], from: BASE + 4 * D, to: BASE + 5 * D })).toEqual([
      { monitorId: 87, day: BASE + 4 * D, total: 3, success: 2, degraded: 1, error: 0, uptime: 1 },
    ]);
    expect(await ch().series({ monitorId: 87, from: BASE + 4 * D, to: BASE + 4 * D + H, bucket: "hour" })).toMatchObject([
      { total: 3, p50: 7, p99: 900 },
    ]);
  });

  it("retention also trims libSQL's copy of exported, evaluated results and keeps the rest", async () => {
    const old = BASE - 200 * D;
    await insertRows(t.db, [result(97, 1, old, "success", 1), result(97, 1, old + H, "success", 1, false)]);
    await exportResults(t.db, ch());
    const late = result(97, 1, old + 2 * H, "success", 1); // not exported yet
    await insertRows(t.db, [late]);
    expect(await ch().deleteBefore(1, old + D)).toBe(2);
    const left = await t.db.$client.execute("select cron_timestamp as c from check_result where monitor_id = 97 order by c");
    expect(left.rows.map((r) => Number(r.c))).toEqual([old + H, late.cronTimestamp]); // the pending one and the unexported one
    expect(await count(`SELECT count() AS n FROM ${DATABASE}.check_results WHERE monitor_id = 97`)).toBe(0);
  });
});

describe("retention and the export watermark", () => {
  it("keeps libSQL's newest result even when it is past retention, so its rowid is never handed out again", async () => {
    const ancient = BASE - 300 * D;
    const newest = result(98, 1, ancient, "success", 1);
    await insertRows(t.db, [newest]);
    await exportResults(t.db, ch());
    await ch().deleteBefore(1, ancient + D);
    const left = await t.db.$client.execute("select cron_timestamp as c from check_result where monitor_id = 98");
    expect(left.rows.map((r) => Number(r.c))).toEqual([newest.cronTimestamp]);
    // The next result gets a fresh rowid past the watermark and is exported.
    await insertRows(t.db, [result(98, 1, BASE + 6 * D, "success", 2)]);
    expect(await exportResults(t.db, ch())).toMatchObject({ exported: 1, behind: 0 });
  });
});

describe("choosing the backend", () => {
  it("uses libSQL without ANALYTICS_URL and ClickHouse with it", () => {
    const plain = analyticsFromEnv(t.db, { ANALYTICS_USER: "default", ANALYTICS_DATABASE: "vigil" });
    expect(plain.backend).toBe("libsql");
    const remote = analyticsFromEnv(t.db, {
      ANALYTICS_URL: "http://127.0.0.1:7181",
      ANALYTICS_API_KEY: "s3cret",
      ANALYTICS_USER: "vigil",
      ANALYTICS_DATABASE: "vigil",
    });
    expect(isClickHouse(remote)).toBe(true);
  });

  it("reads before pnpm analytics:deploy say to run it", async () => {
    const undeployed = clickhouseAnalytics({ client, db: t.db, database: "vigil_not_deployed", where: "127.0.0.1:7181" });
    await expect(undeployed.series({ monitorId: 7, from: BASE, to: BASE + H, bucket: "hour" })).rejects.toThrow(
      new AnalyticsUnavailableError("Analytics (ClickHouse at 127.0.0.1:7181) has no such database yet (run pnpm analytics:deploy)"),
    );
  });

  it("a refused password reads as a clear message that never repeats the password", async () => {
    const port = await freePort();
    const { createServer } = await import("node:http");
    // A loopback stand-in for ClickHouse answering as it does to a wrong password.
    const srv = createServer((_req, res) => {
      res.writeHead(516, { "x-clickhouse-exception-code": "516" });
      res.end(
        "Code: 516. DB::Exception: vigil: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)",
      );
    });
    await new Promise<void>((r) => srv.listen(port, "127.0.0.1", r));
    const a = analyticsFromEnv(t.db, {
      ANALYTICS_URL: `http://127.0.0.1:${port}`,
      ANALYTICS_API_KEY: "s3cret-key",
      ANALYTICS_USER: "vigil",
      ANALYTICS_DATABASE: "vigil",
    });
    const err = await a.dailyUptime({ monitorIds: [1], from: 0, to: D }).catch((e: unknown) => e);
    srv.close();
    expect(err).toBeInstanceOf(AnalyticsUnavailableError);
    expect((err as Error).message).toBe(
      `Analytics (ClickHouse at 127.0.0.1:${port}) refused the credentials (check ANALYTICS_USER and ANALYTICS_API_KEY)`,
    );
    expect((err as Error).message).not.toContain("s3cret");
  });
});
