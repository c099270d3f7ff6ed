// `pnpm bench [name…]`: runs every bench/*.bench.ts (or the named ones) and writes their sections of bench/RESULTS.md.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
const sections = reports.map((r) =>
  [
    `## ${r.title}`,
    "",
    `Run ${new Date().toISOString()} on ${machine}.`,
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
  ].join("\n"),
);

// A named run replaces its own sections and keeps the others, so each figure says when it was measured.
const file = `${dir}RESULTS.md`;
const kept = new Map<string, string>();
if (wanted.length > 0 && existsSync(file))
  for (const part of readFileSync(file, "utf8")
    .split(/^(?=## )/m)
    .slice(1))
    kept.set(part.split("\n", 1)[0]!, part.trimEnd());
for (const section of sections) kept.set(section.split("\n", 1)[0]!, section.trimEnd());
const md = [
  "# Benchmark results",
  "",
  "Each figure is set against a baseline measured in the same run; each section says when and where it ran (`pnpm bench [name…]`).",
  "",
  ...[...kept.values()].sort().map((s) => `${s}\n`),
];
writeFileSync(file, md.join("\n"));
console.log(sections.join("\n"));
