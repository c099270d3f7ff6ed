// Checks on loopback: what runTcpCheck / runHttpCheck add on top of a bare net.connect / http.request.
// The target servers run in a worker thread, so the checks' event loop (one core) is not shared with them.
import { request } from "node:http";
import { connect } from "node:net";
import { Worker } from "node:worker_threads";
import { type CheckResult, HttpCheck, TcpCheck } from "@vigil/api-contract";
// Relative imports: the root package does not depend on the workspace packages it benchmarks.
import { runCheck, runHttpCheck, runTcpCheck } from "@vigil/checks";
import { protocolRows } from "../packages/checks/src/testing/protocol-bench";
import { checkKindRows } from "./check-kinds-tls-dns";
import { type BenchReport, type BenchRow, percentile, sortNumbers } from "./lib";

const SAMPLES = 2000;
const WARMUP = 200;
const IN_FLIGHT = 1000;
const THROUGHPUT_MS = 1000;
const THROUGHPUT_ROUNDS = 3;

const SERVERS = `
const net = require("node:net");
const http = require("node:http");
const { parentPort } = require("node:worker_threads");
const tcp = net.createServer((s) => { s.on("error", () => {}); s.resume(); });
const web = http.createServer((req, res) => { req.resume(); res.end("ok"); });
web.on("clientError", (_e, s) => s.destroy());
tcp.listen({ host: "127.0.0.1", port: 0, backlog: 4096 }, () =>
  web.listen({ host: "127.0.0.1", port: 0, backlog: 4096 }, () =>
    parentPort.postMessage({ tcp: tcp.address().port, http: web.address().port })));
parentPort.on("message", () => { tcp.close(); web.closeAllConnections(); web.close(); parentPort.close(); });
`;

async function startServers(): Promise<{ tcp: number; http: number; stop: () => Promise<void> }> {
  const worker = new Worker(SERVERS, { eval: true });
  const ports = await new Promise<{ tcp: number; http: number }>((resolve) => worker.once("message", resolve));
  return {
    ...ports,
    stop: async () => {
      worker.postMessage("stop");
      await worker.terminate();
    },
  };
}

/** Time from net.connect to "connect", then close: the floor any TCP check stands on. */
function rawTcp(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      const took = performance.now() - started;
      socket.destroy();
      resolve(took);
    });
    socket.once("error", reject);
  });
}

/** A whole GET on a fresh connection (agent: false), body read to the end. */
function rawHttp(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
      res.resume();
      res.once("end", () => resolve(performance.now() - started));
      res.once("error", reject);
    });
    req.once("error", reject);
    req.end();
  });
}

interface Series {
  reported: number[];
  wall: number[];
  raw: number[];
  errors: number;
}

/** Sequential samples, ours and the baseline alternating so drift hits both alike. */
async function sequential(ours: () => Promise<CheckResult>, raw: () => Promise<number>): Promise<Series> {
  const s: Series = { reported: [], wall: [], raw: [], errors: 0 };
  for (let i = 0; i < WARMUP; i++) {
    await ours();
    await raw();
  }
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const r = await ours();
    s.wall.push(performance.now() - started);
    s.reported.push(r.latencyMs);
    if (r.status !== "success") s.errors++;
    s.raw.push(await raw());
  }
  return s;
}

/** Completed operations per second with `IN_FLIGHT` of them running at once, for THROUGHPUT_MS. */
async function throughput(op: () => Promise<unknown>): Promise<Rate> {
  let done = 0;
  let failures = 0;
  const started = performance.now();
  const until = started + THROUGHPUT_MS;
  const lane = async () => {
    while (performance.now() < until) {
      try {
        const r = await op();
        if (typeof r === "object" && r !== null && (r as CheckResult).status === "error") failures++;
      } catch {
        failures++;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return { perSecond: (done / (performance.now() - started)) * 1000, failures };
}

type Rate = { perSecond: number; failures: number };
const median = (xs: Rate[]): Rate => {
  const sorted = [...xs].sort((a, b) => a.perSecond - b.perSecond);
  return { perSecond: sorted[Math.floor(sorted.length / 2)]!.perSecond, failures: xs.reduce((n, x) => n + x.failures, 0) };
};

/** Ours and the baseline in alternating rounds (order flipped each round); the median round of each. */
async function paired(ours: () => Promise<unknown>, raw: () => Promise<unknown>): Promise<{ ours: Rate; raw: Rate }> {
  const a: Rate[] = [];
  const b: Rate[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    if (round % 2 === 0) {
      a.push(await throughput(ours));
      b.push(await throughput(raw));
    } else {
      b.push(await throughput(raw));
      a.push(await throughput(ours));
    }
  }
  return { ours: median(a), raw: median(b) };
}

function latencyRows(name: string, s: Series, baselineName: string): BenchRow[] {
  const reported = sortNumbers(s.reported);
  const wall = sortNumbers(s.wall);
  const raw = sortNumbers(s.raw);
  const rows: BenchRow[] = [];
  for (const p of [50, 99]) {
    rows.push({
      metric: `${name} latency as reported, p${p}`,
      unit: "ms",
      value: percentile(reported, p),
      baseline: percentile(raw, p),
      baselineName,
    });
  }
  for (const p of [50, 99]) {
    const value = percentile(wall, p);
    const baseline = percentile(raw, p);
    rows.push({
      metric: `${name} wall time per check, p${p}`,
      unit: "ms",
      value,
      baseline,
      baselineName,
      ...(p === 50 && { goal: "< 1 ms added at p50", met: value - baseline < 1 }),
    });
  }
  return rows;
}

export default async function checksBench(): Promise<BenchReport> {
  const servers = await startServers();
  try {
    const tcpDef = TcpCheck.parse({ kind: "tcp", host: "127.0.0.1", port: servers.tcp, retry: 0, timeoutMs: 10_000 });
    const httpDef = HttpCheck.parse({ kind: "http", url: `http://127.0.0.1:${servers.http}/`, retry: 0, timeoutMs: 10_000 });

    const tcp = await sequential(
      () => runTcpCheck(tcpDef),
      () => rawTcp(servers.tcp),
    );
    const http = await sequential(
      () => runHttpCheck(httpDef),
      () => rawHttp(servers.http),
    );
    const tcpTput = await paired(
      () => runCheck(tcpDef),
      () => rawTcp(servers.tcp),
    );
    const httpTput = await paired(
      () => runCheck(httpDef),
      () => rawHttp(servers.http),
    );
    const [tcpOurs, tcpRaw, httpOurs, httpRaw] = [tcpTput.ours, tcpTput.raw, httpTput.ours, httpTput.raw];
    const tlsDns = await checkKindRows();
    const protocols = await protocolRows();

    const rows: BenchRow[] = [
      ...latencyRows("TCP check", tcp, "raw net.connect"),
      ...latencyRows("HTTP check", http, "raw http.request (agent: false)"),
      {
        metric: `TCP checks/s, ${IN_FLIGHT} in flight (runCheck)`,
        unit: "checks/s",
        value: tcpOurs.perSecond,
        baseline: tcpRaw.perSecond,
        baselineName: "raw net.connect",
      },
      {
        metric: `HTTP checks/s, ${IN_FLIGHT} in flight (runCheck)`,
        unit: "checks/s",
        value: httpOurs.perSecond,
        baseline: httpRaw.perSecond,
        baselineName: "raw http.request (agent: false)",
      },
      ...tlsDns.rows,
      ...protocols.rows,
    ];
    return {
      title: "Checks (packages/checks) on loopback",
      rows,
      notes: [
        `${SAMPLES} sequential samples each after ${WARMUP} warm-up; ours and the baseline alternate. Servers run in a worker thread.`,
        "'as reported' is the check's own latencyMs (TCP: connect time; HTTP: total incl. connect); 'wall time' is the whole call as the caller sees it.",
        `Throughput: median of ${THROUGHPUT_ROUNDS} alternating rounds of ${THROUGHPUT_MS / 1000} s, ${IN_FLIGHT} operations in flight on one event loop; loopback TCP rates swing ±30% between runs on this shared VM.`,
        ...tlsDns.notes,
        ...protocols.notes,
        `Non-success results: sequential TCP ${tcp.errors}, HTTP ${http.errors}; throughput TCP ${tcpOurs.failures} (raw ${tcpRaw.failures}), HTTP ${httpOurs.failures} (raw ${httpRaw.failures}).`,
      ],
    };
  } finally {
    await servers.stop();
  }
}
