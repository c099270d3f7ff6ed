// Heartbeats: N jobs each pinging once per period (default 10,000 at 30 s = 333 pings/s) on a local server
// process with sqld; server and sqld CPU per ping, and ping latency against the same server's /healthz,
// sampled alongside in the same run. Each ping is a new connection, as curl from a cron job makes.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { createMonitors, createWorkspace, setLimits, sha256 } from "@vigil/core";
import { heartbeat } from "@vigil/db-schema";
import { freePort, startTestDatabase } from "@vigil/db-schema/testing";
import { type BenchReport, percentile, sortNumbers } from "./lib";

const N = Number(process.env.BENCH_HEARTBEATS ?? 10_000);
const PERIOD_MS = Number(process.env.BENCH_HEARTBEAT_PERIOD_MS ?? 30_000);
const WINDOW_MS = Number(process.env.BENCH_HEARTBEAT_WINDOW_MS ?? 60_000);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** utime + stime of one process, in ms (from /proc; not skewed by other load the way latency is). */
function cpuMs(pid: number): number {
  const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** One GET on a fresh connection; ms to the end of the answer, or null on failure. */
function get(url: string): Promise<number | null> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { "user-agent": "bench-job" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - t0 : null));
    });
    req.on("error", () => resolve(null));
    req.setTimeout(10_000, () => req.destroy());
    req.end();
  });
}

export default async function heartbeatsBench(): Promise<BenchReport> {
  const database = await startTestDatabase();
  const db = database.db;
  const ws = await createWorkspace(db, { name: "bench" }, "operator");
  await setLimits(db, ws.id, "unlimited", "operator");
  const made = [];
  for (let i = 0; i < N; i += 500)
    made.push(
      ...(await createMonitors(
        db,
        ws.id,
        Array.from({ length: Math.min(500, N - i) }, (_, j) => ({
          kind: "heartbeat",
          key: `job-${i + j}`,
          request: { period: PERIOD_MS },
        })),
        "operator",
      )),
    );
  // Tokens made here in bulk, as the dashboard would make them one by one on first view.
  const urls = made.map(() => randomBytes(24).toString("base64url"));
  for (let i = 0; i < made.length; i += 500)
    await db
      .insert(heartbeat)
      .values(made.slice(i, i + 500).map((m, j) => ({ monitorId: m.id, token: urls[i + j]!, tokenHash: sha256(urls[i + j]!) })));

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      QUEUE_PREFIX: `bench-hb-${port}`,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      PING_BASE_URL: base,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (let t = Date.now(); (await get(`${base}/healthz`)) === null; ) {
      if (Date.now() - t > 120_000) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 300));
    }
    // Each job pings at its own offset in the period, as cron jobs spread over a fleet do.
    const pings: number[] = [];
    const health: number[] = [];
    let failed = 0;
    const pending: Promise<void>[] = [];
    const started = performance.now();
    const cpu0 = { server: cpuMs(server.pid!), sqld: cpuMs(database.sqld.process.pid!) };
    const gap = PERIOD_MS / N;
    let sent = 0;
    const healthTimer = setInterval(
      () =>
        pending.push(
          get(`${base}/healthz`).then((ms) => {
            if (ms !== null) health.push(ms);
          }),
        ),
      100,
    );
    while (performance.now() - started < WINDOW_MS) {
      const due = Math.floor((performance.now() - started) / gap);
      for (; sent < due; sent++)
        pending.push(
          get(`${base}/ping/${urls[sent % N]}`).then((ms) => {
            if (ms === null) failed++;
            else pings.push(ms);
          }),
        );
      await new Promise((r) => setTimeout(r, 5));
    }
    clearInterval(healthTimer);
    await Promise.all(pending);
    const elapsed = performance.now() - started;
    const cpu = { server: cpuMs(server.pid!) - cpu0.server, sqld: cpuMs(database.sqld.process.pid!) - cpu0.sqld };
    const p = sortNumbers(pings);
    const h = sortNumbers(health);
    const stored = Number((await db.$client.execute("SELECT count(*) AS n FROM heartbeat_ping")).rows[0]?.n ?? 0);
    const rate = pings.length / (elapsed / 1000);
    return {
      title: `Heartbeats: ${N.toLocaleString("en")} jobs pinging every ${PERIOD_MS / 1000} s`,
      rows: [
        {
          metric: "ping latency p50",
          unit: "ms",
          value: percentile(p, 50),
          baseline: percentile(h, 50),
          baselineName: "/healthz p50, same run",
        },
        {
          metric: "ping latency p99",
          unit: "ms",
          value: percentile(p, 99),
          baseline: percentile(h, 99),
          baselineName: "/healthz p99, same run",
          goal: "< 250 ms",
          met: percentile(p, 99) < 250,
        },
        {
          metric: "server CPU per ping",
          unit: "ms",
          value: cpu.server / pings.length,
          baseline: PERIOD_MS / N,
          baselineName: "time between pings at this rate",
          goal: "< 1 core (value/baseline < 1)",
          met: cpu.server / pings.length < PERIOD_MS / N,
        },
        {
          metric: "sqld CPU per ping",
          unit: "ms",
          value: cpu.sqld / pings.length,
          baseline: PERIOD_MS / N,
          baselineName: "time between pings at this rate",
        },
      ],
      notes: [
        `N = ${N} heartbeats (BENCH_HEARTBEATS), period ${PERIOD_MS / 1000} s: ${rate.toFixed(0)} pings/s answered over a ${(elapsed / 1000).toFixed(0)} s window; ${failed} failed; ${stored} stored.`,
        "The server is its own process (node --import tsx apps/server/src/main.ts) on sqld and Redis; every ping and every /healthz (10/s) is a new connection from the bench process on the same machine, which shares its cores.",
        "CPU is utime + stime from /proc over the window, divided by pings answered; /healthz costs are included in the server figure.",
      ],
    };
  } finally {
    server.kill("SIGKILL");
    await database.close();
  }
}
