// The ClickHouse backend over HTTP, the way production talks to it: @clickhouse/client against ClickHouse's HTTP
// interface (served here by chdb-server, the same engine in-process), with the same assertions as the other backends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { startTestDatabase, type TestDatabase } from "@vigil/db-schema/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChdbServer, startChdbServer } from "./chdb-server";
import { type ClickHouseAnalytics, clickhouseAnalytics } from "./clickhouse";
import { analyticsContract, BASE, D, H, insertRows, result, seedWorkspace } from "./contract";
import { deployAnalytics } from "./deploy";
import { AnalyticsUnavailableError } from "./errors";
import { exportResults } from "./export";
import { analyticsFromEnv } from "./factory";

const PASSWORD = "http-test-password";
const DATABASE = "vigil_http";
let t: TestDatabase;
let dir: string;
let server: ChdbServer;
let client: ClickHouseClient;
let analytics: ClickHouseAnalytics;

beforeAll(async () => {
  t = await startTestDatabase();
  await seedWorkspace(t.db);
  dir = mkdtempSync(join(tmpdir(), "vigil-chdb-http-"));
  server = await startChdbServer({ path: dir, user: "vigil", password: PASSWORD });
  // The apps' own client, from the same environment variables they read.
  const env = { ANALYTICS_URL: server.url, ANALYTICS_API_KEY: PASSWORD, ANALYTICS_USER: "vigil", ANALYTICS_DATABASE: DATABASE };
  analytics = analyticsFromEnv(t.db, env) as ClickHouseAnalytics;
  client = createClient({ url: server.url, username: "vigil", password: PASSWORD, log: { level: ClickHouseLogLevel.OFF } });
  await deployAnalytics(client, DATABASE);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rows = async <T>(query: string, c = client) => (await c.query({ query, format: "JSONEachRow" })).json<T>();

analyticsContract("ClickHouse over HTTP", {
  analytics: () => analytics,
  load: async (r) => {
    await insertRows(t.db, r);
    const out = await exportResults(t.db, analytics, { batch: 64 });
    expect(out.behind).toBe(0);
  },
});

describe("ClickHouse's HTTP interface on chdb", () => {
  it("pnpm analytics:deploy's migrations run over HTTP and a second deploy changes nothing", async () => {
    const again = await deployAnalytics(client, DATABASE);
    expect(again).toEqual({ applied: [], alreadyApplied: ["0001_check_results"] });
    const tables = await rows<{ name: string }>(`SELECT name FROM system.tables WHERE database = '${DATABASE}' ORDER BY name`);
    expect(tables.map((x) => x.name)).toContain("check_results_daily");
  });

  it("a block sent twice is counted once: the deduplication settings travel in the URL", async () => {
    const block = [result(301, 1, BASE + 7 * D, "success", 10), result(301, 1, BASE + 7 * D + 60_000, "error", 20)].map((r) => ({
      ...r,
      attempts: 1,
    }));
    await analytics.insertResults(block);
    await analytics.insertResults(block);
    expect(await analytics.dailyUptime({ monitorIds: [301], from: BASE + 7 * D, to: BASE + 8 * D })).toEqual([
      { monitorId: 301, day: BASE + 7 * D, total: 2, success: 1, degraded: 0, error: 1, uptime: 0.5 },
    ]);
  });

  it("a wrong password is refused as ClickHouse refuses it, and the apps say which variables to check", async () => {
    const res = await fetch(`${server.url}/?query=SELECT%201`, { headers: { authorization: `Basic ${btoa("vigil:nope")}` } });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-clickhouse-exception-code")).toBe("516");
    expect(await res.text()).toMatch(/^Code: 516\. DB::Exception: vigil: Authentication failed.*\(AUTHENTICATION_FAILED\)/);
    // No credentials at all is the passwordless "default" user, which does not exist here.
    expect((await fetch(`${server.url}/?query=SELECT%201`)).status).toBe(403);

    const wrong = analyticsFromEnv(t.db, {
      ANALYTICS_URL: server.url,
      ANALYTICS_API_KEY: "nope",
      ANALYTICS_USER: "vigil",
      ANALYTICS_DATABASE: DATABASE,
    });
    const err = await wrong.dailyUptime({ monitorIds: [1], from: BASE, to: BASE + D }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnalyticsUnavailableError);
    expect((err as Error).message).toBe(
      `Analytics (ClickHouse at ${new URL(server.url).host}) refused the credentials (check ANALYTICS_USER and ANALYTICS_API_KEY)`,
    );
  });

  it("every way the client can authenticate works: Basic, X-ClickHouse-User/Key headers, URL parameters", async () => {
    const q = `${server.url}/?query=SELECT%2042`;
    const basic = await fetch(q, { headers: { authorization: `Basic ${btoa(`vigil:${PASSWORD}`)}` } });
    const headers = await fetch(q, { headers: { "x-clickhouse-user": "vigil", "x-clickhouse-key": PASSWORD } });
    const params = await fetch(`${q}&user=vigil&password=${PASSWORD}`);
    expect(await Promise.all([basic, headers, params].map((r) => r.text()))).toEqual(["42\n", "42\n", "42\n"]);
    expect(await (await fetch(`${server.url}/ping`)).text()).toBe("Ok.\n");
    expect(await client.ping()).toEqual({ success: true });
  });

  it("errors keep ClickHouse's codes and HTTP statuses, so the client and the apps read them as from a server", async () => {
    const unknown = await fetch(`${server.url}/?query=SELECT%20*%20FROM%20${DATABASE}.nope`, {
      headers: { "x-clickhouse-user": "vigil", "x-clickhouse-key": PASSWORD },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-clickhouse-exception-code")).toBe("60");
    await expect(client.query({ query: "SELEC 1" })).rejects.toMatchObject({ code: "62", type: "SYNTAX_ERROR" });
    // Reads before a deploy point at the fix, as against a real server.
    const undeployed = clickhouseAnalytics({ client, db: t.db, database: "vigil_not_deployed", where: "here" });
    await expect(undeployed.series({ monitorId: 1, from: BASE, to: BASE + H, bucket: "hour" })).rejects.toThrow(
      "Analytics (ClickHouse at here) has no such database yet (run pnpm analytics:deploy)",
    );
  });

  it("GET is read-only and settings last one request, as on a ClickHouse server", async () => {
    const auth = { "x-clickhouse-user": "vigil", "x-clickhouse-key": PASSWORD };
    const write = await fetch(`${server.url}/?query=${encodeURIComponent(`CREATE TABLE ${DATABASE}.x (a UInt8) ENGINE = Memory`)}`, {
      headers: auth,
    });
    expect(write.status).toBe(500);
    expect(await write.text()).toMatch(/\(READONLY\)/);
    const set = await fetch(`${server.url}/?max_threads=3&query=${encodeURIComponent("SELECT getSetting('max_threads')")}`, {
      headers: auth,
    });
    expect(await set.text()).toBe("3\n");
    const after = await fetch(
      `${server.url}/?query=${encodeURIComponent("SELECT getSetting('max_threads') = 3, getSetting('readonly')")}`,
      {
        method: "POST",
        headers: auth,
      },
    );
    expect(await after.text()).toBe("0\t0\n");
  });

  it("query parameters of every type arrive exactly, quotes and backslashes included", async () => {
    const got = await (
      await client.query({
        query: "SELECT {s:String} AS s, {a:Array(String)} AS a, {n:UInt32} + 1 AS n, {m:Array(UInt32)} AS m",
        query_params: { s: "it's a \\ back\tslash", a: ["it's", "b\\c"], n: 41, m: [1, 2] },
        format: "JSONEachRow",
      })
    ).json();
    expect(got).toEqual([{ s: "it's a \\ back\tslash", a: ["it's", "b\\c"], n: 42, m: [1, 2] }]);
  });

  it("compressed requests and responses (gzip) work when the client asks for them", async () => {
    const gz = createClient({
      url: server.url,
      username: "vigil",
      password: PASSWORD,
      compression: { request: true, response: true },
      log: { level: ClickHouseLogLevel.OFF },
    });
    await gz.command({ query: `CREATE TABLE ${DATABASE}.gz (n UInt32) ENGINE = MergeTree ORDER BY n` });
    await gz.insert({ table: `${DATABASE}.gz`, values: Array.from({ length: 1000 }, (_, n) => ({ n })), format: "JSONEachRow" });
    const rs = await gz.query({ query: `SELECT count() AS c, sum(n) AS s FROM ${DATABASE}.gz`, format: "JSONEachRow" });
    expect(rs.response_headers["content-encoding"]).toBe("gzip");
    expect(await rs.json()).toEqual([{ c: 1000, s: 499500 }]);
    await gz.close();
  });
});
