// Results on their way to ClickHouse, on real processes: probe → server → libSQL → workflows' exporter →
// ClickHouse's HTTP interface (chdb-server, `pnpm analytics:chdb`) → the status page's 90-day bars and the API.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createComponent, createStatusPage } from "@vigil/core";
import { hashToken, session, user, workspaceMember } from "@vigil/db-schema";
import { freePort } from "@vigil/db-schema/testing";
import { type Service, spawnService } from "@vigil/testing/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard, type Dashboard, startDashboard } from "../../apps/dashboard/src/testing";
import { buildStatusPage, type StatusSite, startStatusPage } from "../../apps/status-page/src/testing";
import { type Stack, startStack, Targets, until, WebhookReceiver } from "./harness";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PASSWORD = randomBytes(16).toString("hex");
const DAY = 86_400_000;
/** A result only ClickHouse has, three days old. */
const ONLY_IN_CLICKHOUSE = `01K${"A".repeat(23)}`;
/** Another, 20 hours old and slow, for the dashboard's chart. */
const CHART_ONLY_IN_CLICKHOUSE = `01K${"B".repeat(23)}`;
const clickHouseOnly = new Set([ONLY_IN_CLICKHOUSE, CHART_ONLY_IN_CLICKHOUSE]);

/** `pnpm analytics:chdb` as its own process, killed and started again on the same port and data. */
class ClickHouseProcess {
  service?: Service;
  port = 0;
  constructor(readonly dataDir: string) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  get log() {
    return this.service?.log ?? "";
  }
  async start() {
    this.port ||= await freePort();
    // Source through tsx, as `pnpm analytics:chdb` runs it: a development tool that has no bundle.
    this.service = await spawnService({
      name: "analytics:chdb",
      entry: "packages/analytics/src/chdb-server-cli.ts",
      nodeArgs: ["--import", "tsx"],
      args: ["--port", String(this.port), "--data", this.dataDir],
      env: { ANALYTICS_API_KEY: PASSWORD },
      health: `${this.url}/ping`,
      healthTimeoutMs: 90_000,
    });
  }
  async kill(signal: NodeJS.Signals = "SIGKILL") {
    await this.service?.stop(signal);
  }
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

interface Row {
  id: string;
  status: string;
  latency: number;
  code: number | null;
}

describe("analytics on ClickHouse, end to end", () => {
  let stack: Stack;
  let ch: ClickHouseProcess;
  let site: StatusSite | undefined;
  let dashboard: Dashboard | undefined;
  const targets = new Targets();
  const hook = new WebhookReceiver();
  let api = 0;
  let web = 0;

  /** A query over ClickHouse's HTTP interface, as any client sends it; JSONEachRow rows back. */
  const sql = async <T>(query: string, params: Record<string, string | number> = {}, body?: string): Promise<T[]> => {
    const url = new URL(ch.url);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(`param_${k}`, String(v));
    url.searchParams.set("query", query);
    const res = await fetch(url, { method: "POST", body, headers: { "x-clickhouse-user": "default", "x-clickhouse-key": PASSWORD } });
    const text = await res.text();
    if (!res.ok) throw new Error(text);
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as T);
  };
  const inClickHouse = async (monitorId: number): Promise<Row[]> =>
    (
      await sql<Row>(
        "SELECT id, status, latency_ms AS latency, status_code AS code FROM vigil.check_results WHERE monitor_id = {m:UInt32} ORDER BY id FORMAT JSONEachRow",
        { m: monitorId },
      )
    ).map((r) => ({ ...r, latency: Number(r.latency) }));
  const inLibsql = async (monitorId: number): Promise<Row[]> => {
    const res = await stack.db.$client.execute({
      sql: "select id, status, latency_ms, status_code from check_result where monitor_id = ? order by id",
      args: [monitorId],
    });
    return res.rows.map((r) => ({
      id: String(r.id),
      status: String(r.status),
      latency: Math.round(Number(r.latency_ms)),
      code: r.status_code === null ? null : Number(r.status_code),
    }));
  };

  beforeAll(async () => {
    // The status page's `next build`, shared with its own tests and cached by source (it blocks while it runs).
    await buildStatusPage();
    await buildDashboard();
    await Promise.all([targets.start(), hook.start()]);
    const dir = join(root, "node_modules/.cache");
    ch = new ClickHouseProcess(join(dir, `vigil-analytics-e2e-${randomBytes(4).toString("hex")}`));
    await ch.start();
    const analyticsEnv = { ANALYTICS_URL: ch.url, ANALYTICS_API_KEY: PASSWORD };
    // The setup order's "deploy analytics datasources" step, as an operator runs it; then the apps start.
    const deploy = await run("pnpm", ["analytics:deploy"], analyticsEnv);
    expect(deploy.out).toContain(`analytics: applied 0001_check_results on 127.0.0.1:${ch.port}/vigil`);
    expect(deploy.code).toBe(0);
    stack = await startStack(["iad"], { server: analyticsEnv, workflows: { ...analyticsEnv, ANALYTICS_EXPORT_INTERVAL_MS: "500" } });
  }, 900_000);

  afterAll(async () => {
    await site?.stop();
    await dashboard?.stop();
    await stack?.close();
    await ch?.kill();
    await Promise.all([targets.stop(), hook.stop()]);
    const { rmSync } = await import("node:fs");
    if (ch) rmSync(ch.dataDir, { recursive: true, force: true });
  });

  it("each result reaches ClickHouse with its status, latency and status code, exactly as ingest stored it", {
    timeout: 120_000,
  }, async () => {
    targets.modes.set("/web", "down");
    const monitor = (key: string) => ({
      key,
      kind: "http",
      frequency: "30s",
      regions: ["iad"],
      retry: 0,
      // Generous: a loaded CI machine must not turn the target's instant 503 into a timeout.
      timeout: "10s",
      request: { url: targets.url(`/${key}`) },
    });
    const created = await stack.api("POST", "/v1/monitors/batch", { monitors: [monitor("api"), monitor("web")] });
    expect(created.status).toBe(201);
    [api = 0, web = 0] = created.body.monitors.map((m: { id: number }) => m.id) as number[];
    const channel = await stack.api("POST", "/v1/channels", {
      name: "hook",
      kind: "webhook",
      config: { url: `http://127.0.0.1:${hook.port}/h` },
      monitors: [api, web],
    });
    expect(channel.status).toBe(201);

    await until(
      "the first results of both monitors in ClickHouse",
      async () => (await inClickHouse(api)).length > 0 && (await inClickHouse(web)).length > 0,
      90_000,
      500,
    );
    await until("ClickHouse to hold what libSQL holds", async () => {
      const [a, b] = await Promise.all([inClickHouse(api), inLibsql(api)]);
      const [c, d] = await Promise.all([inClickHouse(web), inLibsql(web)]);
      return JSON.stringify([a, c]) === JSON.stringify([b, d]);
    });
    const up = await inClickHouse(api);
    for (const r of up) expect(r).toMatchObject({ status: "success", code: 200 });
    expect(up.every((r) => r.latency >= 0)).toBe(true);
    const down = await inClickHouse(web);
    const odd = down.filter((r) => r.status !== "error" || r.code !== 503);
    // Each odd row with the message the probe gave it, so a failure says what happened to that check.
    const why = odd.length
      ? (
          await stack.db.$client.execute({
            sql: `select id, status, status_code, error_message, attempts from check_result where id in (${odd.map(() => "?").join(",")})`,
            args: odd.map((r) => r.id),
          })
        ).rows
      : [];
    expect(why).toEqual([]);
    for (const r of down) expect(r).toMatchObject({ status: "error", code: 503 });
  });

  it("the status page started with ANALYTICS_URL draws its bars from the slots Vigil measured (a row only ClickHouse holds changes none), and the API's latency summary reads ClickHouse", {
    timeout: 120_000,
  }, async () => {
    const page = await createStatusPage(stack.db, stack.workspaceId, { slug: "acme", title: "Acme" }, "operator");
    await createComponent(stack.db, stack.workspaceId, page.id, { name: "API", monitorId: api }, "operator");
    // A result only ClickHouse has (three days ago, an error, before the monitor's first check): the bars count the
    // slots stored and measured (one unit of measure), so that day stays "no data"; the latency summary reads ClickHouse.
    const today = Math.floor(Date.now() / DAY) * DAY;
    const earlier = today - 3 * DAY + 3_600_000;
    const row = {
      id: ONLY_IN_CLICKHOUSE,
      workspace_id: stack.workspaceId,
      monitor_id: api,
      location_id: 1,
      region: "iad",
      cron_timestamp: earlier,
      started_at: earlier,
      status: "error",
      latency_ms: 0,
      status_code: 500,
      error_message: "HTTP 500",
      attempts: 1,
    };
    await sql("INSERT INTO vigil.check_results FORMAT JSONEachRow", {}, JSON.stringify(row));
    site = await startStatusPage({
      ...stack.dbEnv,
      AUTH_SECRET: "e2e-secret-0123456789abcdef",
      ANALYTICS_URL: ch.url,
      ANALYTICS_API_KEY: PASSWORD,
    });
    const bars = async () => {
      const html = await (await fetch(`${site!.url}/acme`)).text();
      const list = /<ul class="bars[^"]*" aria-label="API: uptime per day">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
      return [...list.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&#10;", "\n"));
    };
    // Today's bar counts the slots stored today (new ones keep arriving: retry until the count read matches).
    await until("today's bar to count the stored slots", async () => {
      const b = await bars();
      const n = (await inLibsql(api)).length;
      return b.length === 90 && b[89]!.includes(`100% uptime (${n}/${n} checks)`);
    });
    const b = await bars();
    expect(b[86]).toMatch(/^[A-Z][a-z]+ \d+, \d{4}: no data(\n|$)/);
    expect(b[85]).toMatch(/: no data(\n|$)/);

    const summary = await stack.api("GET", `/v1/monitors/${api}/summary?bucket=day&from=${today - 3 * DAY}&to=${today + DAY}`);
    expect(summary.status).toBe(200);
    expect(summary.body.series[0]).toMatchObject({ start: today - 3 * DAY, total: 1, error: 1, uptime: 0, p50: 0 });
    expect(summary.body.series.at(-1)).toMatchObject({ start: today, error: 0, uptime: 1 });
  });

  it("the dashboard started with ANALYTICS_URL charts the checks Vigil stored, never a latency only ClickHouse holds", {
    timeout: 180_000,
  }, async () => {
    // One check only ClickHouse has, 20 hours ago, with a latency no probe here produces: the detail chart draws and
    // counts the checks stored with the monitor (kept for the workspace's retention whatever the analytics store).
    const at = Math.floor((Date.now() - 20 * 3_600_000) / 3_600_000) * 3_600_000 + 60_000;
    const row = {
      id: CHART_ONLY_IN_CLICKHOUSE,
      workspace_id: stack.workspaceId,
      monitor_id: api,
      location_id: 1,
      region: "iad",
      cron_timestamp: at,
      started_at: at,
      status: "success",
      latency_ms: 98_765,
      status_code: 200,
      error_message: null,
      attempts: 1,
    };
    await sql("INSERT INTO vigil.check_results FORMAT JSONEachRow", {}, JSON.stringify(row));
    // A signed-in owner of the workspace: Auth.js keeps database sessions, so a session row (its token hashed) and its cookie sign in.
    const token = randomBytes(32).toString("hex");
    await stack.db.insert(user).values({ id: "u-analytics", email: "owner@acme.test" });
    await stack.db.insert(workspaceMember).values({ workspaceId: stack.workspaceId, userId: "u-analytics", role: "owner" });
    await stack.db.insert(session).values({ sessionToken: hashToken(token), userId: "u-analytics", expires: new Date(Date.now() + DAY) });
    dashboard = await startDashboard({
      ...stack.dbEnv,
      AUTH_SECRET: "e2e-secret-0123456789abcdef",
      ANALYTICS_URL: ch.url,
      ANALYTICS_API_KEY: PASSWORD,
    });
    const page = async () => {
      const res = await fetch(`${dashboard!.url}/w/${stack.workspaceId}/monitors/${api}`, {
        headers: { cookie: `authjs.session-token=${token}` },
        redirect: "manual",
      });
      expect(res.status).toBe(200);
      return (await res.text()).replaceAll('\\"', '"');
    };
    // Checks keep arriving: the count the chart states lies between the stored counts read before and after it.
    await until("the chart to state the stored checks", async () => {
      const before = (await inLibsql(api)).length;
      const html = await page();
      const after = (await inLibsql(api)).length;
      const n = Number(/\): (\d+) checks? · /.exec(html)?.[1] ?? -1);
      return n >= before && n <= after;
    });
    const html = await page();
    expect(html).not.toContain("98765");
    expect(html).not.toContain("98.8 s");
  });

  it("ClickHouse stopped mid-run: alerts still go out, the status page stays up, and every result arrives once it is back", {
    timeout: 240_000,
  }, async () => {
    const before = (await inLibsql(api)).length;
    // Stopped as `docker compose stop` stops it (SIGTERM), between two exports or in the middle of one.
    await ch.kill("SIGTERM");
    targets.modes.set("/api", "down");
    // Alerting never waits for analytics.
    await until("the API's alert while ClickHouse is down", () => hook.of(api).includes("error"), 120_000, 500);
    expect(hook.of(web)).toEqual(["error"]);
    // Results keep landing in libSQL; the export watermark waits behind them.
    const held = await inLibsql(api);
    expect(held.length).toBeGreaterThan(before);
    expect(held.at(-1)).toMatchObject({ status: "error", code: 503 });
    const mark = await stack.db.$client.execute("select exported_through from analytics_export");
    const newest = await stack.db.$client.execute("select max(id) as n from check_result_row");
    expect(Number(mark.rows[0]!.exported_through)).toBeLessThan(Number(newest.rows[0]!.n));
    // The public page does not go down with analytics: it reads the same results from libSQL meanwhile.
    const during = await fetch(`${site!.url}/acme`);
    expect(during.status).toBe(200);
    expect(await during.text()).toContain('aria-label="API: uptime per day"');
    await until(
      "the exporter to say it waits for ClickHouse",
      () => stack.workflows.log.includes("analytics export waits for ClickHouse"),
      60_000,
    );

    // No new results from here on, so the counts below are final.
    await stack.probes[0]!.kill();
    await ch.start();
    await until(
      "the backlog in ClickHouse",
      async () => {
        const [a, b] = await Promise.all([inClickHouse(api), inLibsql(api)]);
        const [c, d] = await Promise.all([inClickHouse(web), inLibsql(web)]);
        // The rows only ClickHouse has stay; everything libSQL has arrives.
        return JSON.stringify([a.filter((r) => !clickHouseOnly.has(r.id)), c]) === JSON.stringify([b, d]);
      },
      60_000,
      500,
    );
    // Nothing twice: raw rows (no FINAL) match libSQL one for one, and the daily view counts each result once.
    const [counts] = await sql<{ n: number; ids: number }>(
      "SELECT count() AS n, uniqExact(id) AS ids FROM vigil.check_results WHERE monitor_id IN ({a:UInt32}, {w:UInt32}) FORMAT JSONEachRow",
      { a: api, w: web },
    );
    const libsqlTotal = (await inLibsql(api)).length + (await inLibsql(web)).length;
    expect({ n: Number(counts!.n), ids: Number(counts!.ids) }).toEqual({
      n: libsqlTotal + clickHouseOnly.size,
      ids: libsqlTotal + clickHouseOnly.size,
    });
    const perDay = async (query: string) =>
      Object.fromEntries(
        (await sql<{ k: string; n: number }>(`${query} FORMAT JSONEachRow`, { a: api, w: web })).map((r) => [r.k, Number(r.n)]),
      );
    const raw = await perDay(
      "SELECT concat(toString(monitor_id), ' ', toString(toDate(cron_timestamp))) AS k, count() AS n FROM vigil.check_results WHERE monitor_id IN ({a:UInt32}, {w:UInt32}) GROUP BY k",
    );
    const view = await perDay(
      "SELECT concat(toString(monitor_id), ' ', toString(toDate(bucket))) AS k, sum(total) AS n FROM vigil.check_results_daily WHERE monitor_id IN ({a:UInt32}, {w:UInt32}) GROUP BY k",
    );
    expect(view).toEqual(raw);
  });
});
