// Dashboard monitor list with 10,000 monitors (first page, next page, search) and a monitor detail with
// 30 days of 30 s results in two locations (30 d chart), each as a full server render over HTTP by a
// signed-in member, set against the raw database query behind it, timed in the same run.
import { randomBytes } from "node:crypto";
import { libsqlAnalytics } from "@vigil/analytics";
import { bootstrapUser, createPrivateLocation, setLimits } from "@vigil/core";
import { buildDashboard, startDashboard } from "@vigil/dashboard/testing";
import { monitor, monitorLocationStatus, session, user } from "@vigil/db-schema";
import { insertResults, startTestDatabase } from "@vigil/db-schema/testing";
import { type BenchReport, percentile, sortNumbers } from "./lib";

const MONITORS = Number(process.env.BENCH_DASHBOARD_MONITORS ?? 10_000);
const RUNS = 15;
const H = 3_600_000;
const D = 24 * H;

async function timed(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await run(); // warm the process and the database's page cache
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return percentile(sortNumbers(ms), 50);
}

async function inBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export default async function dashboardListBench(): Promise<BenchReport> {
  const built = buildDashboard();
  const t = await startTestDatabase();
  const db = t.db;
  const userId = `bench-${randomBytes(4).toString("hex")}`;
  await db.insert(user).values({ id: userId, email: "bench@example.com", name: "Bench" });
  const [membership] = await bootstrapUser(db, { id: userId, email: "bench@example.com" });
  const ws = membership!.workspace.id;
  await setLimits(db, ws, "unlimited", "operator");
  const token = randomBytes(24).toString("hex");
  await db.insert(session).values({ sessionToken: token, userId, expires: new Date(Date.now() + D) });
  const fra = await createPrivateLocation(db, ws, { name: "rack-fra", region: "fra" }, "operator");
  const iad = await createPrivateLocation(db, ws, { name: "rack-iad", region: "iad" }, "operator");
  await db.$client.execute({ sql: "update private_location set online = 1 where workspace_id = ?", args: [ws] });

  const now = Date.now();
  const hour = Math.floor(now / H) * H;
  // 10,000 monitors, a few failing, each with 24 hourly results and a latest status.
  const monitors = Array.from({ length: MONITORS }, (_, i) => ({
    workspaceId: ws,
    key: `service-${i}`,
    name: `Service ${i}`,
    kind: "http" as const,
    frequency: "1m",
    regions: ["fra"],
    url: `https://service-${i}.example.com/health`,
    method: "GET",
    status: i % 97 === 0 ? ("error" as const) : ("active" as const),
  }));
  await inBatches(monitors, 500, (b) => db.insert(monitor).values(b));
  const ids = (await db.select({ id: monitor.id }).from(monitor)).map((r) => r.id);
  await inBatches(ids, 500, (b) =>
    db.insert(monitorLocationStatus).values(
      b.map((id) => ({
        monitorId: id,
        locationId: fra.location.id,
        status: "success" as const,
        cronTimestamp: hour,
        resultId: `r${id}`,
        latencyMs: 40 + (id % 50),
      })),
    ),
  );
  let seq = 0;
  const rid = () => `01B${String(seq++).padStart(23, "0")}`;
  const hourly = ids.flatMap((id) =>
    Array.from({ length: 24 }, (_, h) => ({
      id: rid(),
      workspaceId: ws,
      monitorId: id,
      locationId: fra.location.id,
      region: "fra",
      cronTimestamp: hour - h * H,
      startedAt: hour - h * H,
      status: "success" as const,
      latencyMs: 30 + ((id * 7 + h * 13) % 90),
      evaluatedAt: hour,
    })),
  );
  await insertResults(db, hourly);

  // The detail monitor: 30 days every 30 s from both locations (~86,400 rows each).
  const detail = ids[0]!;
  await db.$client.execute({ sql: `update monitor set regions = '["fra","iad"]' where id = ?`, args: [detail] });
  const dense = [];
  for (const loc of [fra.location, iad.location])
    for (let at = now - 30 * D; at < now; at += 30_000)
      dense.push({
        id: rid(),
        workspaceId: ws,
        monitorId: detail,
        locationId: loc.id,
        region: loc.region,
        cronTimestamp: at,
        startedAt: at,
        status: (at / 30_000) % 500 === 0 ? ("error" as const) : ("success" as const),
        latencyMs: 20 + Math.floor(((at / 30_000) * 37) % 200),
        evaluatedAt: at,
      });
  await insertResults(db, dense);
  // What the workflows' minute step has done by then: every completed hour summed.
  const analytics = libsqlAnalytics(db);
  const r0 = performance.now();
  await analytics.rollup({ maxBatches: 10_000 });
  const firstRollup = performance.now() - r0;

  await built;
  const dash = await startDashboard({
    DATABASE_URL: t.url,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "warn",
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  });
  const headers = { cookie: `authjs.session-token=${token}` };
  const page = async (path: string, mustContain: string, extra: Record<string, string> = {}) => {
    const res = await fetch(`${dash.url}/w/${ws}${path}`, { headers: { ...headers, ...extra }, redirect: "manual" });
    const html = await res.text();
    if (res.status !== 200 || !html.includes(mustContain)) throw new Error(`${path}: ${res.status} without "${mustContain}"`);
    bytes.set(path.replace(/[?&]_rsc=[^&]*/, "") + (extra.RSC ? " (RSC)" : ""), html.length);
  };
  const bytes = new Map<string, number>();
  const raw = (statement: string, args: (string | number)[]) => () => db.$client.execute({ sql: statement, args });
  try {
    const first = await timed(() => page("/monitors", "Service 0"));
    const next = await timed(() => page("/monitors?page=2", "26–50 of 10"));
    const search = await timed(() => page("/monitors?q=service-4242", "Service 4242"));
    // AutoRefresh's router.refresh(): the page's React Server Components payload, every 4 s while visible.
    // Next answers an RSC request first with a redirect to its cache-busting `_rsc` address, as the router follows.
    const rsc = { RSC: "1" };
    const bust = await fetch(`${dash.url}/w/${ws}/monitors`, { headers: { ...headers, ...rsc }, redirect: "manual" });
    const rscPath = new URL(bust.headers.get("location") ?? `/w/${ws}/monitors`, dash.url);
    const refresh = await timed(() => page(`${rscPath.pathname.slice(`/w/${ws}`.length)}${rscPath.search}`, "Service 0", rsc));
    const detailPage = await timed(() => page(`/monitors/${detail}?range=30d`, " checks · "));
    const rawList = await timed(raw("select * from monitor where workspace_id = ? and deleted_at is null order by id limit 25", [ws]));
    const rawSearch = await timed(
      raw("select * from monitor where workspace_id = ? and deleted_at is null and (name like ? or url like ?) limit 25", [
        ws,
        "%service-4242%",
        "%service-4242%",
      ]),
    );
    const rawDetail = await timed(
      raw(
        "select cron_timestamp / 86400000 as day, location_id, count(*), max(latency_ms) from check_result where monitor_id = ? and cron_timestamp >= ? group by 1, 2",
        [detail, now - 30 * D],
      ),
    );
    const rollupRead = await timed(
      raw("select hour, location_id, total, error, latencies from check_result_hour where monitor_id = ? and hour >= ?", [
        detail,
        now - 30 * D,
      ]),
    );
    const caughtUp = await timed(() => analytics.rollup());
    const row = (metric: string, value: number, baseline: number, baselineName: string, goalMs: number) => ({
      metric,
      unit: "ms",
      value,
      baseline,
      baselineName,
      goal: `< ${goalMs} ms`,
      met: value < goalMs,
    });
    return {
      title: `Dashboard monitors: ${MONITORS.toLocaleString("en")} monitors, detail with 30 d of 30 s results × 2 locations`,
      rows: [
        row("list first page, server-rendered (p50)", first, rawList, "raw query: 25 monitors", 300),
        row("list next page (p50)", next, rawList, "raw query: 25 monitors", 300),
        row("list search (p50)", search, rawSearch, "raw LIKE query", 300),
        row("list live refresh, RSC payload (p50)", refresh, rawList, "raw query: 25 monitors", 300),
        row(
          "detail 30 d chart page (p50)",
          detailPage,
          rawDetail,
          `raw scan: ${(dense.length / 2).toLocaleString("en")} rows × 2, per day`,
          500,
        ),
        row("detail 30 d chart page (p50)", detailPage, rollupRead, "raw read of its 30 d hourly sums × 2", 500),
      ],
      notes: [
        "Full HTML responses over HTTP from `next start` with a database session cookie; every page is filtered, sorted (by status) and paged in SQL, with 24 h sparklines from the analytics store (libSQL backend).",
        "The detail page reads p50/p95/p99 per location from the analytics store's buckets (daily for 30 d), never the raw rows: libSQL sums completed hours into check_result_hour (exact latency histograms) and reads only the current hour and late results raw.",
        `Response sizes (characters, uncompressed): ${[...bytes].map(([p, n]) => `${p} ${n.toLocaleString("en")}`).join(", ")}.`,
        `The rollup step (workflows, every minute) took ${Math.round(firstRollup)} ms to sum this data set the first time, ${caughtUp.toFixed(1)} ms (p50) when caught up.`,
      ],
    };
  } finally {
    await dash.stop();
    await t.close();
  }
}
