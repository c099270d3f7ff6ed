// Cost per check of the whole local stack (`pnpm start`: sqld, the services process (server, workflows, probe),
// two Next servers and the launcher), N TCP monitors at 30 s against loopback listeners, set against the probe alone running the
// same checks with its results discarded (a loopback server that answers the probe API and keeps nothing).
// Per process: CPU (utime + stime from /proc) over the window divided by the results stored in it, RSS and
// PSS (its share of pages mapped by several processes, such as Node's own code) at their peak; bytes stored per result (the result table's used bytes per row, and the window's growth of live
// pages and of the data dir); SQL statements per result (sqld's own
// query count, admin API); the evaluation queue's depth over time; start lag (start − slot of the window's stored
// rows, p50/p99); status changes since start (every target is healthy); the probe's own count of its monitors.
//   BENCH_STACK_N=0,100,1000,10000 (issue 33: 50000)  BENCH_STACK_WARMUP_S=60  BENCH_STACK_WINDOW_S=120
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, rmSync, statSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ProbeMonitor, TcpCheck } from "@vigil/api-contract";
import { metricsHeaders } from "@vigil/testing";
import { type BenchReport, type BenchRow, tcpListeners } from "./lib";

const SIZES = (process.env.BENCH_STACK_N ?? "0,100,1000,10000").split(",").map(Number);
const WARMUP_S = Number(process.env.BENCH_STACK_WARMUP_S ?? 60);
const WINDOW_S = Number(process.env.BENCH_STACK_WINDOW_S ?? 120);
const INTERVAL_MS = 30_000;
const LISTENERS = 4;
const root = fileURLToPath(new URL("..", import.meta.url));
const TICK_MS = 10; // USER_HZ is 100 on Linux
const PAGE = 4096;

/** "services" is the one local process that holds setup, workflows, the server and the probe; "pnpm" is `pnpm start` and its shells. */
type Group = "pnpm" | "launcher" | "sqld" | "services" | "dashboard" | "status-page";
const GROUPS: Group[] = ["pnpm", "launcher", "sqld", "services", "dashboard", "status-page"];
/** Started on their first request (scripts/on-demand.ts): the runs reach them only after the window. */
const WEB: Group[] = ["dashboard", "status-page"];

interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
  rssBytes: number;
  pssBytes: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return {
      pid,
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      rssBytes: Number(f[21]) * PAGE,
      pssBytes: Number(pss?.[1] ?? 0) * 1024,
    };
  } catch {
    return null;
  }
}

/**
 * What the stack occupies in RAM: the physical pages mapped by any of `pids`, each counted once (the kernel's
 * page frame numbers from /proc/<pid>/pagemap). RSS summed over processes counts a page that several map
 * (Node's code, in every Node process) once per process; PSS splits it, also with processes outside the stack.
 * Null when frame numbers are hidden (they need CAP_SYS_ADMIN).
 */
export function uniqueResidentBytes(pids: number[]): number | null {
  const frames = new Set<number>();
  const entries = Buffer.alloc(8 * 4096);
  for (const pid of pids) {
    let smaps: string;
    let fd: number;
    try {
      smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
      fd = openSync(`/proc/${pid}/pagemap`, "r");
    } catch {
      continue;
    }
    try {
      // Only the mappings with something resident: V8 reserves gigabytes it never touches.
      for (const m of smaps.matchAll(/^([0-9a-f]+)-([0-9a-f]+) [^\n]*\n(?:(?![0-9a-f]+-)[^\n]*\n)*?Rss:\s+(\d+) kB/gm)) {
        if (m[3] === "0") continue;
        let page = Number.parseInt(m[1]!, 16) / PAGE;
        const end = Number.parseInt(m[2]!, 16) / PAGE;
        while (page < end) {
          const count = Math.min(4096, end - page);
          const got = readSync(fd, entries, 0, count * 8, page * 8) / 8;
          for (let i = 0; i < got; i++) {
            const entry = entries.readBigUInt64LE(i * 8);
            // Bit 63: present; bits 0–54: the frame.
            if (entry >> 63n === 0n) continue;
            const frame = Number(entry & 0x7fffffffffffffn);
            if (frame === 0) return null;
            frames.add(frame);
          }
          if (got < count) break;
          page += count;
        }
      }
    } catch {
    } finally {
      closeSync(fd);
    }
  }
  return frames.size * PAGE;
}

/** Every process under `rootPid`, named by what it runs. */
function tree(rootPid: number): Map<number, Proc & { group: Group }> {
  const all = new Map<number, Proc>();
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    const p = readProc(Number(e));
    if (p) all.set(p.pid, p);
  }
  const out = new Map<number, Proc & { group: Group }>();
  for (const p of all.values()) {
    let q: Proc | undefined = p;
    while (q && q.pid !== rootPid && q.pid > 1) q = all.get(q.ppid);
    if (q?.pid !== rootPid) continue;
    out.set(p.pid, { ...p, group: p.pid === rootPid ? "pnpm" : groupOf(p.pid) });
  }
  return out;
}

function groupOf(pid: number): Group {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const cmd = argv.join(" ");
    if (/sqld/.test(argv[0] ?? "")) return "sqld";
    if (argv[0] === "sh" || argv[0]?.endsWith("/sh")) return "pnpm";
    if (cmd.includes("local-services")) return "services";
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    if (cwd.endsWith("apps/dashboard")) return "dashboard";
    if (cwd.endsWith("apps/status-page")) return "status-page";
  } catch {}
  return "launcher";
}

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((r) =>
          createServer().listen(0, "127.0.0.1", function (this: Server) {
            r(this);
          }),
        ),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`stack bench: ${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** Bytes under a directory (the whole data dir: database, its WAL and sqld's replication log). */
function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += du(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

interface Sample {
  t: number;
  cpu: Record<Group, number>;
  rss: Record<Group, number>;
  pss: Record<Group, number>;
  /** The whole stack's physical pages, each once (null if hidden). */
  unique: number | null;
}
function sample(rootPid: number): Sample {
  const cpu = Object.fromEntries(GROUPS.map((g) => [g, 0])) as Record<Group, number>;
  const [rss, pss] = [{ ...cpu }, { ...cpu }];
  const procs = [...tree(rootPid).values()];
  for (const p of procs) {
    cpu[p.group] += p.ticks * TICK_MS;
    rss[p.group] += p.rssBytes;
    pss[p.group] += p.pssBytes;
  }
  return { t: Date.now(), cpu, rss, pss, unique: uniqueResidentBytes(procs.map((p) => p.pid)) };
}
const mb = (r: Record<Group, number>) => Object.fromEntries(GROUPS.map((g) => [g, r[g] / 2 ** 20])) as Record<Group, number>;

export interface StackRun {
  n: number;
  windowS: number;
  /** CPU ms over the window per group (processes that restarted lose their earlier ticks: none should). */
  cpuMs: Record<Group, number>;
  rssMb: Record<Group, number>;
  pssMb: Record<Group, number>;
  /** Peak of the stack's resident memory with each physical page counted once, MB (null if hidden). */
  uniqueMb: number | null;
  /** After the window: the web apps' first request (seconds to answer it) and the stack's RSS with them up. */
  web: { firstS: Record<string, number>; rssMb: Record<Group, number> };
  stored: number;
  /** Growth of the data dir (database, WAL, sqld's replication log): depends on where compaction happens to be. */
  bytes: number;
  /** Growth of the database's live pages (page count less free pages, times the page size): what results take. */
  liveBytes: number | null;
  /** Bytes the result table and its indexes use (pages less their unused space) per row, at the end. */
  rowBytes: number | null;
  statements: number | null;
  /** Evaluate queue (waiting + active + delayed) every 10 s of the window. */
  queue: number[];
  unevaluatedAtEnd: number | null;
  /** Start lag (start − slot) of the window's stored results, ms: p50 and p99. */
  lagMs: { p50: number; p99: number } | null;
  /** Status events since the stack started, creation included: every target is healthy, so any is false. */
  statusEvents: number | null;
  /** The probe's own view every 10 s of the window: monitors it schedules, checks queued, outbox depth. */
  probe: string[];
}

async function runStack(n: number, ports: number[]): Promise<StackRun> {
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-stack-"));
  const [workflows, server, dashboard, statusPage, probe, db, dbGrpc, dbAdmin] = await freePorts(8);
  const servicePorts = {
    WORKFLOWS: workflows,
    SERVER: server,
    DASHBOARD: dashboard,
    STATUS_PAGE: statusPage,
    PROBE: probe,
    DB: db,
    DB_GRPC: dbGrpc,
  };
  const child: ChildProcess = spawn("pnpm", ["start"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      FORCE_COLOR: "0",
      VIGIL_DATA_DIR: dataDir,
      ...Object.fromEntries(Object.entries(servicePorts).map(([name, port]) => [`VIGIL_${name}_PORT`, String(port)])),
      // sqld reads it from its environment: its statement counters, for the bench only.
      SQLD_ADMIN_LISTEN_ADDR: `127.0.0.1:${dbAdmin}`,
    },
  });
  let log = "";
  child.stdout!.on("data", (d) => (log = (log + d).slice(-20_000)));
  child.stderr!.on("data", (d) => (log = (log + d).slice(-20_000)));
  const sql = async (q: string) => {
    // pnpm start made the database's token on its first start.
    const token = readFileSync(join(dataDir, "db-token"), "utf8").trim();
    const res = await fetch(`http://127.0.0.1:${db}/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ statements: [q] }),
    });
    const body = (await res.json()) as { results: { rows: unknown[][] } }[];
    return Number(body[0]!.results.rows[0]![0]);
  };
  const statements = async () => {
    const res = await fetch(`http://127.0.0.1:${dbAdmin}/v1/namespaces/default/stats`).catch(() => null);
    if (!res?.ok) return null;
    return ((await res.json()) as { query_count?: number }).query_count ?? null;
  };
  const queueDepth = async () => {
    const text = await (await fetch(`http://127.0.0.1:${workflows}/metrics`, { headers: metricsHeaders() })).text();
    let sum = 0;
    for (const m of text.matchAll(/^vigil_queue_jobs\{queue="evaluate",state="(waiting|active|delayed)"\} (\d+)/gm)) sum += Number(m[2]);
    return sum;
  };
  try {
    // Not the web apps: they start on their first request, and a stack nobody looks at keeps them stopped.
    for (const port of [workflows, server, probe])
      await until(
        `port ${port} healthy\n${log.slice(-3000)}`,
        async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined),
        300_000,
      );
    const state = JSON.parse(readFileSync(join(dataDir, "local.json"), "utf8")) as { apiKey: string };
    for (let i = 0; i < n; i += 1000) {
      const monitors = Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
        name: `tcp ${i + j + 1}`,
        kind: "tcp",
        frequency: "30s",
        regions: ["iad"],
        retry: 0,
        request: { host: "127.0.0.1", port: ports[(i + j) % ports.length] },
      }));
      // A busy database answers 503: retried, as a client should.
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`http://127.0.0.1:${server}/v1/monitors/batch`, {
          method: "POST",
          headers: { authorization: `Bearer ${state.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ monitors }),
        });
        if (res.status === 201) break;
        if (res.status !== 503 || attempt >= 10) throw new Error(`creating monitors answered ${res.status}: ${await res.text()}`);
        await sleep(1000);
      }
    }
    await sleep(WARMUP_S * 1000);
    const live = () =>
      sql("select (select page_count from pragma_page_count()) - (select freelist_count from pragma_freelist_count())")
        .then(async (pages) => pages * (await sql("select page_size from pragma_page_size()")))
        .catch(() => null);
    const [stored0, stmts0, live0] = [await sql("select count(*) from check_result_row"), await statements(), await live()];
    const id0 = await sql("select coalesce(max(id), 0) from check_result_row");
    const bytes0 = du(dataDir);
    const s0 = sample(child.pid!);
    const queue: number[] = [];
    const probeSeen: string[] = [];
    const probeStatus = async () => {
      const st = (await (await fetch(`http://127.0.0.1:${probe}/status`)).json()) as {
        monitors: number;
        queued: number;
        outbox: { depth: number };
      };
      return `${st.monitors}/${st.queued}/${st.outbox.depth}`;
    };
    const [rssPeak, pssPeak] = [{ ...s0.rss }, { ...s0.pss }];
    let uniquePeak = s0.unique;
    for (let t = 0; t < WINDOW_S; t += 10) {
      await sleep(Math.min(10, WINDOW_S - t) * 1000);
      queue.push(await queueDepth().catch(() => Number.NaN));
      probeSeen.push(await probeStatus().catch(() => "–"));
      const s = sample(child.pid!);
      for (const g of GROUPS) rssPeak[g] = Math.max(rssPeak[g], s.rss[g]);
      for (const g of GROUPS) pssPeak[g] = Math.max(pssPeak[g], s.pss[g]);
      if (uniquePeak !== null && s.unique !== null) uniquePeak = Math.max(uniquePeak, s.unique);
    }
    const s1 = sample(child.pid!);
    const [stored1, stmts1, live1] = [await sql("select count(*) from check_result_row"), await statements(), await live()];
    // Exact at any N, where the window's page growth counts whole 4 KB pages (one is 14 B per result at N=100).
    const rowBytes = await sql(
      "select sum(pgsize - unused) * 1.0 / (select count(*) from check_result_row) from dbstat where name in (select name from sqlite_schema where tbl_name = 'check_result_row')",
    ).catch(() => null);
    const bytes1 = du(dataDir);
    const unevaluated = await sql("select count(*) from check_result where evaluated_at is null").catch(() => null);
    // Exact, from the stored rows (start_offset_ms is start − slot), not from histogram buckets.
    const lagAt = (q: number) =>
      sql(`select start_offset_ms from check_result_row where id > ${id0} order by start_offset_ms
        limit 1 offset (select cast(count(*) * ${q} as int) from check_result_row where id > ${id0})`);
    const lagMs = stored1 > stored0 ? { p50: await lagAt(0.5), p99: await lagAt(0.99) } : null;
    const statusEvents = await sql("select count(*) from status_event").catch(() => null);
    // Someone opens the dashboard and a status page: each answers its first request (started by it, if stopped).
    const firstS: Record<string, number> = {};
    for (const [name, port] of [
      ["dashboard", dashboard],
      ["status-page", statusPage],
    ] as const) {
      const t = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await res.json()) as { service?: string };
      if (!res.ok || body.service !== name) throw new Error(`${name}'s first request answered ${res.status} ${JSON.stringify(body)}`);
      firstS[name] = (Date.now() - t) / 1000;
    }
    await sleep(5000);
    const windowS = (s1.t - s0.t) / 1000;
    return {
      n,
      windowS,
      cpuMs: Object.fromEntries(GROUPS.map((g) => [g, s1.cpu[g] - s0.cpu[g]])) as Record<Group, number>,
      rssMb: mb(rssPeak),
      pssMb: mb(pssPeak),
      uniqueMb: uniquePeak === null ? null : uniquePeak / 2 ** 20,
      web: { firstS, rssMb: mb(sample(child.pid!).rss) },
      stored: stored1 - stored0,
      bytes: bytes1 - bytes0,
      liveBytes: live0 !== null && live1 !== null ? live1 - live0 : null,
      rowBytes,
      statements: stmts0 !== null && stmts1 !== null ? stmts1 - stmts0 : null,
      queue,
      unevaluatedAtEnd: unevaluated,
      lagMs,
      statusEvents,
      probe: probeSeen,
    };
  } finally {
    try {
      process.kill(-child.pid!, "SIGINT");
    } catch {}
    const exited = new Promise((r) => child.once("exit", r));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
    if (child.exitCode === null) await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The probe alone: the compiled probe process, its API answered by a loopback server that keeps nothing. */
async function runProbeAlone(
  n: number,
  ports: number[],
): Promise<{ cpuMs: number; rssMb: number; pssMb: number; results: number; windowS: number }> {
  const dist = join(root, "apps/private-location/dist/main.js");
  if (!existsSync(dist)) {
    const { buildNode } = await import("../scripts/build-node");
    await buildNode(join(root, "apps/private-location"), ["main=src/main.ts"]);
  }
  const monitors: ProbeMonitor[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `tcp ${i + 1}`,
    frequency: "30s" as const,
    intervalMs: INTERVAL_MS,
    version: 1,
    check: TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: ports[i % ports.length]!, retry: 0 }),
    openTelemetry: null,
  }));
  const list = JSON.stringify({ location: { id: 1, name: "bench", region: "iad" }, monitors });
  let results = 0;
  const api = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url?.startsWith("/v1/probe/monitors")) {
        res.writeHead(200, { "content-type": "application/json", etag: '"bench"' }).end(list);
      } else if (req.url?.startsWith("/v1/probe/wait")) {
        const t = setTimeout(
          () => res.writeHead(200, { "content-type": "application/json" }).end('{"etag":"\\"bench\\"","changed":false,"runs":[]}'),
          25_000,
        );
        res.on("close", () => clearTimeout(t));
      } else if (req.url === "/v1/probe/results") {
        const got = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { results: unknown[] }).results.length;
        results += got;
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ accepted: got, duplicates: 0, ignored: 0, queued: true }));
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-probe-alone-"));
  const [port] = await freePorts(1);
  const child = spawn(process.execPath, [dist], {
    cwd: root,
    stdio: "ignore",
    env: {
      ...process.env,
      SERVICE_KEY: "vgl_loc_bench",
      SERVICE_INGEST_URL: `http://127.0.0.1:${(api.address() as { port: number }).port}`,
      PROBE_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    },
  });
  try {
    await sleep(WARMUP_S * 1000);
    const r0 = results;
    const p0 = readProc(child.pid!)!;
    const t0 = Date.now();
    let [rss, pss] = [p0.rssBytes, p0.pssBytes];
    for (let t = 0; t < WINDOW_S; t += 10) {
      await sleep(Math.min(10, WINDOW_S - t) * 1000);
      const p = readProc(child.pid!);
      rss = Math.max(rss, p?.rssBytes ?? 0);
      pss = Math.max(pss, p?.pssBytes ?? 0);
    }
    const p1 = readProc(child.pid!)!;
    return {
      cpuMs: (p1.ticks - p0.ticks) * TICK_MS,
      rssMb: rss / 2 ** 20,
      pssMb: pss / 2 ** 20,
      results: results - r0,
      windowS: (Date.now() - t0) / 1000,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await new Promise((r) => api.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sum = (r: Record<Group, number>) => GROUPS.reduce((s, g) => s + r[g], 0);
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(x >= 100 ? 0 : 1) : "–");

/**
 * The stack's memory three ways: each physical page once (what it takes from the machine, the goal's measure),
 * RSS summed (Node's ~40 MB of code once per Node process) and PSS summed (shared pages split, also with
 * processes outside the stack).
 */
function residentRows(what: string, s: StackRun, baseline: number, goalMb: number | null, baselineName: string): BenchRow[] {
  const row = (metric: string, value: number, goal: boolean): BenchRow => ({
    metric: `${what} ${metric}`,
    unit: "MB",
    value,
    baseline,
    baselineName,
    ...(goal && goalMb !== null ? { goal: `≤ ${goalMb} MB`, met: value <= goalMb } : {}),
  });
  return [
    ...(s.uniqueMb === null ? [] : [row("resident memory (peak, each page once)", s.uniqueMb, true)]),
    row("RSS (sum of peaks)", sum(s.rssMb), s.uniqueMb === null),
    row("PSS (sum of peaks)", sum(s.pssMb), false),
  ];
}

const bench = async (): Promise<BenchReport> => {
  const l = await tcpListeners(LISTENERS);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    for (const n of SIZES) {
      console.log(`  stack with ${n} monitors (${WARMUP_S} s warm-up + ${WINDOW_S} s)…`);
      // Other work on the machine moves every figure: its load is in the notes.
      const load0 = loadavg()[0]!;
      const s = await runStack(n, l.ports).catch((err: Error) => err);
      if (s instanceof Error) {
        notes.push(`N=${n}: the run failed: ${s.message.split("\n")[0]}`);
        console.log(`  ${notes.at(-1)}`);
        continue;
      }
      const cpu = sum(s.cpuMs);
      const rss = sum(s.rssMb);
      const pss = sum(s.pssMb);
      const per = (x: number) => (s.stored > 0 ? x / s.stored : Number.NaN);
      notes.push(
        `N=${n}: ${s.stored} results stored in ${s.windowS.toFixed(0)} s (${(s.stored / s.windowS).toFixed(1)}/s, expected ${(n / 30).toFixed(1)}/s); ` +
          `total ${f1(per(cpu))} ms CPU, ${s.rowBytes === null ? "–" : f1(s.rowBytes)} B per stored result row (table and index), ${s.liveBytes === null ? "–" : f1(per(s.liveBytes))} B of live database and ${f1(per(s.bytes))} B of data dir growth, ${s.statements === null ? "–" : f1(per(s.statements))} statements per result, resident ${s.uniqueMb === null ? "–" : f1(s.uniqueMb)} MB (each page once), RSS ${f1(rss)} MB, PSS ${f1(pss)} MB; ` +
          (n === 0
            ? `CPU % of a core by process: ${GROUPS.map((g) => `${g} ${((s.cpuMs[g] / (s.windowS * 1000)) * 100).toFixed(2)}`).join(", ")}; `
            : `CPU ms per result by process: ${GROUPS.map((g) => `${g} ${f1(per(s.cpuMs[g]))}`).join(", ")}; `) +
          `RSS MB: ${GROUPS.map((g) => `${g} ${f1(s.rssMb[g])}`).join(", ")}; ` +
          `PSS MB: ${GROUPS.map((g) => `${g} ${f1(s.pssMb[g])}`).join(", ")}; ` +
          `after the window, the web apps' first request answered in ${WEB.map((g) => `${g} ${s.web.firstS[g]?.toFixed(1)} s`).join(", ")}, then RSS ${f1(sum(s.web.rssMb))} MB (${WEB.map((g) => `${g} ${f1(s.web.rssMb[g])}`).join(", ")}); ` +
          `evaluate queue every 10 s: [${s.queue.join(", ")}]; results never evaluated at the end: ${s.unevaluatedAtEnd ?? "–"}; ` +
          `start lag p50 ${s.lagMs ? f1(s.lagMs.p50) : "–"} ms, p99 ${s.lagMs ? f1(s.lagMs.p99) : "–"} ms; status changes since start ${s.statusEvents ?? "–"}; ` +
          `probe every 10 s (monitors scheduled/checks queued/outbox depth): [${s.probe.join(", ")}]; ` +
          `load average (1 min) ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
      );
      console.log(`  ${notes.at(-1)}`);
      if (n === 0) {
        const share = (cpu / (s.windowS * 1000)) * 100;
        rows.push(
          {
            metric: "idle stack CPU (share of one core)",
            unit: "%",
            value: share,
            baseline: 1,
            baselineName: "goal",
            goal: "< 1 %",
            met: share < 1,
          },
          ...residentRows("idle stack", s, 200, 200, "goal"),
        );
        continue;
      }
      const alone = await runProbeAlone(n, l.ports);
      const aloneMs = alone.results > 0 ? alone.cpuMs / alone.results : Number.NaN;
      notes.push(
        `N=${n} probe alone: ${alone.results} results discarded in ${alone.windowS.toFixed(0)} s, ${f1(alone.cpuMs)} ms CPU (${f1(aloneMs)} ms per result), RSS ${f1(alone.rssMb)} MB, PSS ${f1(alone.pssMb)} MB.`,
      );
      console.log(`  ${notes.at(-1)}`);
      const ratio = per(cpu) / aloneMs;
      rows.push(
        {
          metric: `N=${n}: stack CPU per stored result`,
          unit: "ms",
          value: per(cpu),
          baseline: aloneMs,
          baselineName: "probe alone, results discarded",
          ...(n >= 1000 ? { goal: "≤ 2× probe alone", met: ratio <= 2 } : {}),
        },
        ...residentRows(`N=${n}: stack`, s, alone.rssMb, n === 1000 ? 250 : null, "probe alone"),
        {
          metric: `N=${n}: bytes stored per result (result table and its index, per row)`,
          unit: "B",
          value: s.rowBytes ?? per(s.liveBytes ?? s.bytes),
          baseline: 60,
          baselineName: "goal",
          goal: "≤ 60 B",
          met: (s.rowBytes ?? per(s.liveBytes ?? s.bytes)) <= 60,
        },
        ...(s.lagMs
          ? [
              {
                metric: `N=${n}: start lag p99`,
                unit: "ms",
                value: s.lagMs.p99,
                baseline: 1000,
                baselineName: "goal",
                ...(n >= 10_000 ? { goal: "< 1 s", met: s.lagMs.p99 < 1000 } : {}),
              },
            ]
          : []),
        ...(s.statusEvents !== null
          ? [
              {
                metric: `N=${n}: status changes, healthy targets (creation included)`,
                unit: "",
                value: s.statusEvents,
                baseline: n,
                baselineName: "monitors",
                goal: "0",
                met: s.statusEvents === 0,
              },
            ]
          : []),
        ...(s.statements !== null
          ? [
              {
                metric: `N=${n}: SQL statements per result`,
                unit: "",
                value: per(s.statements),
                baseline: 1,
                baselineName: "one per result",
              },
            ]
          : []),
        {
          metric: `N=${n}: results stored per expected`,
          unit: "",
          value: s.stored / ((n / 30) * s.windowS),
          baseline: 1,
          baselineName: "every check stored",
          ...(n >= 10_000
            ? {
                goal: "keeps up, no growing backlog",
                met: s.stored / ((n / 30) * s.windowS) > 0.95 && (s.queue.at(-1) ?? 0) <= Math.max(...s.queue.slice(0, 2), 10),
              }
            : {}),
        },
      );
    }
  } finally {
    await l.close();
  }
  return {
    title: `Whole stack: N TCP monitors at 30 s (${WARMUP_S} s warm-up, ${WINDOW_S} s window)`,
    rows,
    notes: [
      ...notes,
      "Stack = every process `pnpm start` runs (sqld; one services process holding workflows, the server and the probe; two Next servers, started on their first request; pnpm and the launcher); Redis is shared and not counted. CPU is utime + stime from /proc over the window. RSS counts pages shared by several processes (Node's code) once per process; PSS splits them between the processes that share them.",
      "Bytes stored: the result table and its index, used bytes (SQLite's dbstat: page size less unused space) per stored row at the end; the notes also give the growth of the database's live pages ((page_count − freelist_count) × page_size) over the window per result, and the whole data dir's growth (database, WAL, sqld's replication log), which swings with checkpoints and log compaction. Statements: sqld's query_count (admin API).",
    ],
  };
};

export default bench;
