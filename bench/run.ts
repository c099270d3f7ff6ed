// `pnpm bench [name…]`: runs every bench/*.bench.ts (or the named ones) and writes bench/RESULTS.md.
import { readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import type { Bench, BenchReport } from "./lib";

const dir = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, "")))
  .sort();

const fmt = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(3)) : String(n));
const reports: BenchReport[] = [];
for (const f of files) {
  console.log(`bench: ${f}`);
  const mod = (await import(`./${f}`)) as { default: Bench };
  const report = await mod.default();
  reports.push(report);
  for (const r of report.rows) {
    console.log(
      `  ${r.metric}: ${fmt(r.value)} ${r.unit} vs ${r.baselineName} ${fmt(r.baseline)} ${r.unit} (ratio ${fmt(r.value / r.baseline)})${r.goal ? ` goal ${r.goal}: ${r.met ? "met" : "NOT met"}` : ""}`,
    );
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const md = [
  "# Benchmark results",
  "",
  `Run ${new Date().toISOString()} on ${machine}. Each figure is set against a baseline measured in the same run.`,
  "",
  ...reports.flatMap((r) => [
    `## ${r.title}`,
    "",
    "| metric | Vigil | baseline | ratio | goal |",
    "|---|---|---|---|---|",
    ...r.rows.map(
      (x) =>
        `| ${x.metric} | ${fmt(x.value)} ${x.unit} | ${fmt(x.baseline)} ${x.unit} (${x.baselineName}) | ${fmt(x.value / x.baseline)} | ${x.goal ? `${x.goal}: ${x.met ? "met" : "**not met**"}` : ""} |`,
    ),
    "",
    ...(r.notes ?? []).map((n) => `- ${n}`),
    "",
  ]),
];
if (wanted.length === 0) writeFileSync(`${dir}RESULTS.md`, md.join("\n"));
else console.log(md.join("\n"));
