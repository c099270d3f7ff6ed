import { spanText } from "@vigil/api-contract";
import type { Command } from "commander";
import type { Ctx } from "../context";
import { CliError } from "../io";

export type ReportFlags = { monitor?: string; page?: string; month?: string; from?: string; to?: string; target?: string; format: string };

const FORMATS = ["text", "csv", "json"];
const pct = (x: number) => `${(x * 100).toFixed(3)}%`;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** A time to the second ("2 h 5 min 3 s"); under a second, to the millisecond ("0.6 s"). */
export const span = spanText;

/** `vigil report`: a monitor's or a status page's SLA over a month or a range (the server checks the range). */
export async function report(ctx: Ctx, flags: ReportFlags): Promise<number> {
  if (!FORMATS.includes(flags.format)) throw new CliError(`--format must be one of ${FORMATS.join(", ")}`, 1);
  if (Boolean(flags.monitor) === Boolean(flags.page)) throw new CliError("give one of --monitor <id|key> or --page <id|slug>", 1);
  const { api } = await ctx.api();
  let what: "monitors" | "status-pages";
  let id: number;
  if (flags.monitor) {
    const ref = flags.monitor.trim();
    const found = (await api.listMonitors()).find((m) => String(m.id) === ref || m.key === ref);
    if (!found) throw new CliError(`no monitor "${ref}" (give its id or YAML key; see \`vigil list\`)`, 1);
    what = "monitors";
    id = found.id;
  } else {
    const ref = flags.page!.trim().toLowerCase();
    const found = (await api.listStatusPages()).find((p) => String(p.id) === ref || p.slug === ref);
    if (!found) throw new CliError(`no status page "${flags.page}"`, 1);
    what = "status-pages";
    id = found.id;
  }
  const query = new URLSearchParams();
  for (const k of ["month", "from", "to", "target"] as const) if (flags[k] !== undefined) query.set(k, flags[k]!);
  const format = ctx.json ? "json" : flags.format;
  if (format === "csv") {
    ctx.io.stdout(await api.slaCsv(what, id, query));
    return 0;
  }
  const r = await api.slaReport(what, id, query);
  if (format === "json") {
    ctx.io.stdout(`${JSON.stringify(r, null, 2)}\n`);
    return 0;
  }
  const out = ctx.io.stdout;
  out(`${iso(r.from)} – ${iso(r.to)}, target ${pct(r.target)}\n`);
  if (r.measuredMs === 0) out("no data: nothing was measured in this range (no check before its end)\n");
  else {
    out(`measured ${iso(r.measuredFrom)} – ${iso(r.measuredTo)} (${span(r.measuredMs)}): up ${span(r.upMs + r.degradedMs)}, `);
    out(`down ${span(r.downMs)}, no data ${span(r.noDataMs)}, maintenance ${span(r.maintenanceMs)} left out\n`);
    if (r.checks === 0) out("uptime: no data (no result outside maintenance)\n");
    else out(`uptime ${pct(r.uptime)} over ${r.checks} checks (${r.failed} failed, ${r.inMaintenance} in maintenance left out)\n`);
    const b = r.errorBudget;
    out(`error budget: ${span(b.allowedMs)} allowed, ${span(b.usedMs)} used, ${span(b.remainingMs)} (${pct(b.remaining)}) left\n`);
  }
  if (r.monitors.length > 1)
    for (const m of r.monitors)
      out(
        `  ${m.monitorName} (${m.monitorId}): ${m.checks === 0 ? "no data" : `${pct(m.uptime)} over ${m.checks} checks`}, measured ${span(m.measuredMs)}\n`,
      );
  for (const w of r.maintenance) out(`maintenance ${iso(w.startsAt)} – ${iso(w.endsAt)}: ${w.title}\n`);
  for (const i of r.incidents) out(`incident ${iso(i.startedAt)} – ${i.resolvedAt ? iso(i.resolvedAt) : "ongoing"}: ${i.title}\n`);
  return 0;
}

export function registerReport(
  program: Command,
  action: <A extends unknown[]>(fn: (ctx: Ctx, ...args: A) => Promise<number>) => (...args: A) => Promise<void>,
) {
  program
    .command("report")
    .description("uptime and error budget (SLA) of a monitor or a status page over a month or a range")
    .option("--monitor <id|key>", "the monitor")
    .option("--page <id|slug>", "the status page (its monitors together, its incidents listed)")
    .option("--month <YYYY-MM>", "a calendar month (UTC)")
    .option("--from <date>", "range start, YYYY-MM-DD (UTC) or ISO 8601")
    .option("--to <date>", "range end (exclusive), default now")
    .option("--target <percent>", "the objective, default 99.9")
    .option("--format <format>", "text, csv or json", "text")
    .action(action((ctx, flags: ReportFlags) => report(ctx, flags)));
}
