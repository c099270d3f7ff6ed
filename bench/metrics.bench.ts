// Prometheus scrape (`GET /v1/metrics`) of a workspace with 10,000 monitors, each with its latest status and a
// day of results, as Prometheus would do it every 15 s: each timed scrape folds the 2,500 results stored since
// the previous one (10,000 monitors at 1 min) and writes every series. Set against the same server's /healthz,
// and against the same bytes served ready-made by node:http in the same process (the floor of moving them),
// each measured right after a scrape so that both see the same load on a shared machine.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { createPrivateLocation } from "@vigil/core";
import { monitor, monitorLocationStatus } from "@vigil/db-schema";
import { insertResults } from "@vigil/db-schema/testing";
import { startTestServer } from "@vigil/server/testing";
import { type BenchReport, percentile, sortNumbers } from "./lib";

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
    const scrape = async () => {
      const res = await fetch(`${s.url}/v1/metrics?tags=team`, { headers: { authorization: `Bearer ${s.apiKey}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`scrape answered ${res.status}: ${text.slice(0, 200)}`);
      return text;
    };
    const f0 = performance.now();
    const first = await scrape();
    const firstMs = performance.now() - f0;

    const body = Buffer.from(first);
    const plain = createServer((_, res) => res.end(body));
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    const timed = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const scrapeMs: number[] = [];
    const plainMs: number[] = [];
    const healthMs: number[] = [];
    let next = 0;
    try {
      for (let i = 0; i < RUNS + 3; i++) {
        await insertResults(db, results(next, 2_500, hour));
        next += 2_500;
        const scraped = await timed(scrape);
        const served = await timed(async () => (await fetch(plainUrl)).text());
        const health = await timed(async () => (await fetch(`${s.url}/healthz`)).text());
        if (i >= 3) {
          scrapeMs.push(scraped);
          plainMs.push(served);
          healthMs.push(health);
        }
      }
    } finally {
      plain.close();
    }
    const p50 = percentile(sortNumbers(scrapeMs), 50);
    const mib = (Buffer.byteLength(first) / 2 ** 20).toFixed(1);
    const series = first.split("\n").filter((l) => l && !l.startsWith("#")).length;
    return {
      title: `Prometheus scrape (${MONITORS.toLocaleString("en")} monitors)`,
      rows: [
        {
          metric: `GET /v1/metrics, ${MONITORS.toLocaleString("en")} monitors, 2,500 new results each scrape, p50`,
          unit: "ms",
          value: p50,
          baseline: percentile(sortNumbers(healthMs), 50),
          baselineName: "GET /healthz on the same server",
          goal: "< 200 ms",
          met: p50 < 200,
        },
        {
          metric: "GET /v1/metrics, same scrapes, p50",
          unit: "ms",
          value: p50,
          baseline: percentile(sortNumbers(plainMs), 50),
          baselineName: `the same ${mib} MiB served ready-made by node:http, same process`,
        },
      ],
      notes: [
        `${series.toLocaleString("en")} samples, ${mib} MiB per scrape; p95 ${percentile(sortNumbers(scrapeMs), 95).toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end of the run.`,
        `The first scrape folded ${(ids.length * 24).toLocaleString("en")} stored results into the counters in ${firstMs.toFixed(0)} ms (once per workspace).`,
      ],
    };
  } finally {
    await s.close();
  }
}
