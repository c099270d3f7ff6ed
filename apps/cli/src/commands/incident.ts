import type { StatusReportSummary as StatusReport } from "@vigil/api-contract";
import { REPORT_STATUS_VALUES } from "@vigil/api-contract";
import { type Command, Option } from "commander";
import { z } from "zod";
import type { Ctx } from "../context";
import { CliError } from "../io";
import { table } from "./list";

/** Short impact words for the command line, as the API names them. */
export const IMPACTS = { degraded: "degraded", partial: "partial_outage", major: "major_outage" } as const;
const STATES = REPORT_STATUS_VALUES.filter((s) => s !== "investigating");
const ReportId = z.coerce.number().int().positive();
const DEFAULT_OPEN_MESSAGE = "We are investigating this issue.";
const DEFAULT_RESOLVE_MESSAGE = "This incident has been resolved.";

export type OpenFlags = { page: string; title: string; component?: string[]; impact: keyof typeof IMPACTS; message?: string };

function reportId(raw: string): number {
  const id = ReportId.safeParse(raw);
  if (!id.success) throw new CliError(`"${raw}" is not an incident id (a positive whole number, see \`vigil incident list\`)`, 1);
  return id.data;
}

const human = (s: string) => s.replaceAll("_", " ");

/** A page by id or slug; an unknown one names the pages there are. */
async function findPage(ctx: Ctx, ref: string) {
  const { api } = await ctx.api();
  const pages = await api.listStatusPages();
  const wanted = ref.trim().toLowerCase();
  const page = pages.find((p) => String(p.id) === wanted || p.slug === wanted);
  if (page) return page;
  const known = pages.map((p) => `${p.slug} (${p.id})`).join(", ");
  throw new CliError(`no status page "${ref}"; ${known ? `pages: ${known}` : "this workspace has no status pages yet"}`, 1);
}

function printReport(ctx: Ctx, verb: string, report: StatusReport, names = new Map<number, string>()) {
  const out = ctx.io.stdout;
  if (ctx.json) {
    out(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  out(`${verb} incident ${report.id}: ${report.title} (${report.status})\n`);
  for (const c of report.components) out(`  affects ${names.get(c.componentId) ?? `component ${c.componentId}`}: ${human(c.impact)}\n`);
  const latest = report.updates[0];
  if (latest) out(`  ${new Date(latest.date).toISOString()} ${latest.status}: ${latest.message}\n`);
}

/** `vigil incident open`: a new status report on a page, with its first update. */
export async function openIncident(ctx: Ctx, flags: OpenFlags): Promise<number> {
  const page = await findPage(ctx, flags.page);
  const { api } = await ctx.api();
  const names = new Map<number, string>();
  const components: { componentId: number; impact: (typeof IMPACTS)[keyof typeof IMPACTS] }[] = [];
  if (flags.component?.length) {
    const onPage = await api.listComponents(page.id);
    for (const ref of flags.component) {
      const wanted = ref.trim().toLowerCase();
      const found = onPage.find((c) => String(c.id) === wanted) ?? onPage.find((c) => c.name.toLowerCase() === wanted);
      if (!found) {
        const known = onPage.map((c) => `${c.name} (${c.id})`).join(", ");
        throw new CliError(`no component "${ref}" on ${page.slug}; ${known ? `components: ${known}` : "the page has no components"}`, 1);
      }
      names.set(found.id, found.name);
      components.push({ componentId: found.id, impact: IMPACTS[flags.impact] });
    }
  }
  const report = await api.createStatusReport({
    pageId: page.id,
    title: flags.title,
    message: flags.message ?? DEFAULT_OPEN_MESSAGE,
    components,
  });
  printReport(ctx, `opened on ${page.slug}:`, report, names);
  return 0;
}

/** `vigil incident update <id>`: a new state and message on an open report. */
export async function updateIncident(ctx: Ctx, rawId: string, flags: { state: string; message: string }): Promise<number> {
  const id = reportId(rawId);
  const { api } = await ctx.api();
  const report = await api.addStatusReportUpdate(id, { status: flags.state as (typeof STATES)[number], message: flags.message });
  printReport(ctx, "updated", report);
  return 0;
}

/** `vigil incident resolve <id>`: the closing update. */
export async function resolveIncident(ctx: Ctx, rawId: string, flags: { message?: string }): Promise<number> {
  const id = reportId(rawId);
  const { api } = await ctx.api();
  const report = await api.addStatusReportUpdate(id, { status: "resolved", message: flags.message ?? DEFAULT_RESOLVE_MESSAGE });
  printReport(ctx, "resolved", report);
  return 0;
}

/** `vigil incident list`: open incidents (all with --all), newest first. */
export async function listIncidents(ctx: Ctx, flags: { page?: string; all?: boolean }): Promise<number> {
  const { api } = await ctx.api();
  const page = flags.page === undefined ? undefined : await findPage(ctx, flags.page);
  const [reports, pages] = await Promise.all([
    api.listStatusReports({ pageId: page?.id, open: !flags.all }),
    page ? Promise.resolve([page]) : api.listStatusPages(),
  ]);
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify(reports, null, 2)}\n`);
    return 0;
  }
  if (reports.length === 0) {
    ctx.io.stdout(flags.all ? "no incidents\n" : "no open incidents\n");
    return 0;
  }
  const slugs = new Map(pages.map((p) => [p.id, p.slug]));
  const rows = [
    ["ID", "STATE", "PAGE", "STARTED", "TITLE"],
    ...reports.map((r) => [String(r.id), r.status, slugs.get(r.pageId) ?? String(r.pageId), new Date(r.createdAt).toISOString(), r.title]),
  ];
  ctx.io.stdout(table(rows));
  return 0;
}

type Action = <A extends unknown[]>(fn: (ctx: Ctx, ...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/** `vigil incident open|update|resolve|list`, registered on the program. */
export function registerIncident(program: Command, action: Action): void {
  const incident = program.command("incident").description("open, update, resolve and list status page incidents");
  incident
    .command("open")
    .description("open an incident on a status page (its first update is public at once)")
    .requiredOption("--page <page>", "status page slug or id")
    .requiredOption("--title <title>", "what visitors see as the headline")
    .option("--component <component...>", "affected component ids or names")
    .addOption(new Option("--impact <impact>", "impact on the components").choices(Object.keys(IMPACTS)).default("major"))
    .option("--message <message>", `first update, Markdown (default "${DEFAULT_OPEN_MESSAGE}")`)
    .action(action((ctx, flags: OpenFlags) => openIncident(ctx, flags)));
  incident
    .command("update")
    .description("post an update to an incident")
    .argument("<id>", "incident id (see `vigil incident list`)")
    .addOption(new Option("--state <state>", "the incident's state now").choices(STATES).makeOptionMandatory())
    .requiredOption("--message <message>", "the update, Markdown")
    .action(action((ctx, id: string, flags: { state: string; message: string }) => updateIncident(ctx, id, flags)));
  incident
    .command("resolve")
    .description("resolve an incident")
    .argument("<id>", "incident id (see `vigil incident list`)")
    .option("--message <message>", `closing update, Markdown (default "${DEFAULT_RESOLVE_MESSAGE}")`)
    .action(action((ctx, id: string, flags: { message?: string }) => resolveIncident(ctx, id, flags)));
  incident
    .command("list")
    .description("list open incidents, newest first")
    .option("--page <page>", "only this status page (slug or id)")
    .option("--all", "resolved incidents too")
    .action(action((ctx, flags: { page?: string; all?: boolean }) => listIncidents(ctx, flags)));
}
