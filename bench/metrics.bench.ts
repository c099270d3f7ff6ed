// Prometheus scrape (`GET /v1/metrics`) of a workspace with 10,000 monitors, each with its latest status and a
// day of results, as Prometheus would do it every 15 s: each timed scrape folds the 2,500 results stored since
// the previous one (10,000 monitors at 1 min) and writes every series, gzipped as Prometheus asks by default
// and, as a second row, uncompressed. Set against the same server's /healthz, and against the same text served
// ready-made by node:http in the same process (the floor of moving it to the scraper, inflating included),
// each measured right after a scrape so that both see the same load on a shared machine. The scraper runs in a
// process of its own, as Prometheus does.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { createPrivateLocation, prometheusMetrics } from "@vigil/core";
import { createDb, monitor, monitorLocationStatus } from "@vigil/db-schema";
import { insertResults } from "@vigil/db-schema/testing";
import { startTestServer } from "@vigil/server/testing";
import { type BenchReport, httpClientProcess, percentile, sortNumbers } from "./lib";

const MONITORS = Number(process.env.BENCH_METRICS_MONITORS ?? 10_000);
const RUNS = 15;
const H = 3_600_000;

async function inBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export default async function metricsBench(): Promise<BenchReport> {
  const s = await startTestServer();
  const db = s.database.db;
  const ws = s.workspaceId;
  try {
    const { location } = await createPrivateLocation(db, ws, { name: "rack-fra", region: "fra" }, "operator");
    const hour = Math.floor(Date.now() / H) * H;
    await inBatches(
      Array.from({ length: MONITORS }, (_, i) => ({
        workspaceId: ws,
        key: `service-${i}`,
        name: `Service ${i}`,
        tags: [`team:t${i % 20}`],
        kind: "http" as const,
        frequency: "1m",
        regions: ["fra"],
        url: `https://service-${i}.example.com/health`,
        method: "GET",
      })),
      500,
      (b) => db.insert(monitor).values(b),
    );
    const ids = (await db.select({ id: monitor.id }).from(monitor)).map((r) => r.id);
    await inBatches(ids, 500, (b) =>
      db.insert(monitorLocationStatus).values(
        b.map((id) => ({
          monitorId: id,
          locationId: location.id,
          status: "success" as const,
          cronTimestamp: hour,
          resultId: `r${id}`,
          latencyMs: 40,
        })),
      ),
    );
    const results = (from: number, count: number, at: number) =>
      Array.from({ length: count }, (_, k) => {
        const id = ids[(from + k) % ids.length]!;
        return {
          workspaceId: ws,
          monitorId: id,
          locationId: location.id,
          cronTimestamp: at + Math.floor((from + k) / ids.length) * 60_000,
          status: (id + k) % 53 === 0 ? ("error" as const) : ("success" as const),
          latencyMs: 20 + ((id * 7 + k) % 900),
          evaluatedAt: at,
        };
      });
    // A day of hourly results per monitor, folded by the first scrape (not timed).
    for (let h = 24; h > 0; h--) await insertResults(db, results(0, ids.length, hour - h * H));
    const scrape = async (encoding = "gzip") => {
      const res = await fetch(`${s.url}/v1/metrics?tags=team`, {
        headers: { authorization: `Bearer ${s.apiKey}`, "accept-encoding": encoding },
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`scrape answered ${res.status}: ${text.slice(0, 200)}`);
      return text;
    };
    const f0 = performance.now();
    const first = await scrape();
    const firstMs = performance.now() - f0;

    // The same text ready-made, as is and gzipped: the floor of moving it to this client either way.
    const body = Buffer.from(first);
    const zipped = gzipSync(body, { level: 1 });
    const plain = createServer((req, res) => {
      if (req.headers["accept-encoding"] === "gzip") res.setHeader("content-encoding", "gzip");
      res.end(req.headers["accept-encoding"] === "gzip" ? zipped : body);
    });
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    const timed = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    // CPU spent by this process (the server; the scraper is another) and by sqld, per scrape.
    const sqldPid = s.database.sqld.process.pid;
    const sqldCpuMs = () => {
      const f = readFileSync(`/proc/${sqldPid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    };
    const ownCpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const encodings = ["gzip", "identity"] as const;
    const m = Object.fromEntries(
      encodings.map((e) => [e, { scrape: [] as number[], served: [] as number[], health: [] as number[], own: 0, sqld: 0 }]),
    );
    const alone: number[] = [];
    // A client made as the server makes its own (sqld's answers not gzipped on loopback).
    const asServer = createDb(s.database.url, undefined, { uncompressed: true });
    // The scraper in its own process, as Prometheus is: its reading and gunzip are not the server's time.
    const client = await httpClientProcess();
    let next = 0;
    try {
      for (let i = 0; i < RUNS + 3; i++) {
        for (const e of encodings) {
          await insertResults(db, results(next, 2_500, hour));
          next += 2_500;
          const [own0, sqld0] = [ownCpuMs(), sqldCpuMs()];
          const scraped = await client.get(`${s.url}/v1/metrics?tags=team`, { authorization: `Bearer ${s.apiKey}`, "accept-encoding": e });
          const [own1, sqld1] = [ownCpuMs(), sqldCpuMs()];
          const served = await client.get(plainUrl, { "accept-encoding": e });
          const health = await client.get(`${s.url}/healthz`);
          if (i >= 3) {
            m[e]!.scrape.push(scraped);
            m[e]!.served.push(served);
            m[e]!.health.push(health);
            m[e]!.own += own1 - own0;
            m[e]!.sqld += sqld1 - sqld0;
          }
        }
        // The query and the text alone, without HTTP (and nothing new to fold).
        if (i >= 3)
          alone.push(
            await timed(async () => {
              for (const _ of await prometheusMetrics(asServer, ws, { tagLabels: ["team"] }));
            }),
          );
      }
    } finally {
      client.close();
      plain.close();
      asServer.$client.close();
    }
    const p50 = (xs: number[]) => percentile(sortNumbers(xs), 50);
    const mib = (Buffer.byteLength(first) / 2 ** 20).toFixed(1);
    const zmib = (zipped.length / 2 ** 20).toFixed(1);
    const series = first.split("\n").filter((l) => l && !l.startsWith("#")).length;
    const gz = m.gzip!;
    const id = m.identity!;
    return {
      title: `Prometheus scrape (${MONITORS.toLocaleString("en")} monitors)`,
      rows: [
        {
          metric: `GET /v1/metrics as Prometheus asks (gzip), ${MONITORS.toLocaleString("en")} monitors, 2,500 new results each scrape, p50`,
          unit: "ms",
          value: p50(gz.scrape),
          baseline: p50(gz.health),
          baselineName: "GET /healthz on the same server",
          goal: "< 200 ms",
          met: p50(gz.scrape) < 200,
        },
        {
          metric: "GET /v1/metrics as Prometheus asks (gzip), same scrapes, p50",
          unit: "ms",
          value: p50(gz.scrape),
          baseline: p50(gz.served),
          baselineName: `the same text gzipped (${zmib} MiB) served ready-made by node:http, same process and client`,
        },
        {
          metric: "GET /v1/metrics uncompressed (Accept-Encoding: identity), 2,500 new results each scrape, p50",
          unit: "ms",
          value: p50(id.scrape),
          baseline: p50(id.served),
          baselineName: `the same ${mib} MiB served ready-made by node:http, same process and client`,
        },
      ],
      notes: [
        `${series.toLocaleString("en")} samples, ${mib} MiB per scrape (${zmib} MiB gzipped); p95 ${percentile(sortNumbers(gz.scrape), 95).toFixed(0)} ms gzip, ${percentile(sortNumbers(id.scrape), 95).toFixed(0)} ms uncompressed; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end of the run.`,
        `CPU per scrape, gzip: ${(gz.own / RUNS).toFixed(0)} ms in the server's process and ${(gz.sqld / RUNS).toFixed(0)} ms in sqld; uncompressed: ${(id.own / RUNS).toFixed(0)} and ${(id.sqld / RUNS).toFixed(0)} ms. The query and the text alone (prometheusMetrics, no HTTP): ${p50(alone).toFixed(0)} ms p50.`,
        `The first scrape folded ${(ids.length * 24).toLocaleString("en")} stored results into the counters in ${firstMs.toFixed(0)} ms (once per workspace).`,
      ],
    };
  } finally {
    await s.close();
  }
}
