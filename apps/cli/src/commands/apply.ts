import { APPLY_MAX, ApplyInput, type ApplyOutput, type MonitorInput } from "@vigil/api-contract";
import type { z } from "zod";
import { ApiError } from "../api";
import { type Ctx, loadMonitorsFile, reportApiError } from "../context";
import { CliError } from "../io";
import { startProgress } from "../progress";
import { CREATE_PAGE } from "./create";

export type ApplyFlags = { prune?: boolean; dryRun?: boolean };
type Body = z.input<typeof ApplyInput>;

/**
 * `vigil apply <file>`: makes the workspace's keyed monitors match the file; deletes only with --prune. Up to
 * 1,000 monitors are one all-or-nothing request. A bigger file goes in pages of 500: every page is planned
 * first (nothing is written if any entry is refused), then applied page by page, each all-or-nothing, the
 * prune last and sparing the other pages' keys. A page refused then leaves the ones before it applied, and
 * the message says so: applying the file again converges.
 */
export async function apply(ctx: Ctx, file: string, flags: ApplyFlags): Promise<number> {
  const parsed = await loadMonitorsFile(ctx.io, file, "nothing was applied");
  const prune = flags.prune === true;
  const dryRun = flags.dryRun === true;
  const all = parsed.monitors;
  const size = all.length <= APPLY_MAX ? Math.max(all.length, 1) : CREATE_PAGE;
  const pages: MonitorInput[][] = [];
  for (let i = 0; i < all.length || pages.length === 0; i += size) pages.push(all.slice(i, i + size));
  if (pages.length > 1) {
    const seen = new Map<string, number>();
    for (const [i, m] of all.entries()) {
      if (m.key === undefined) continue;
      const first = seen.get(m.key);
      if (first !== undefined)
        throw new CliError(`${file}: monitors.${i}.key "${m.key}" is also monitors.${first}.key; nothing was applied`, 1);
      seen.set(m.key, i);
    }
  }
  // The prune goes with the last page and spares the keys of the others.
  const bodyOf = (p: number, dry: boolean): Body => {
    const last = p === pages.length - 1;
    const keep = prune && last && pages.length > 1 ? all.slice(0, p * size).flatMap((m) => (m.key ? [m.key] : [])) : [];
    return { monitors: pages[p]!, prune: prune && last, dryRun: dry, ...(keep.length > 0 ? { keep } : {}) };
  };
  for (let p = 0; p < pages.length; p++) {
    const body = ApplyInput.safeParse(bodyOf(p, dryRun));
    if (!body.success) throw new CliError(`${file}: ${body.error.issues[0]?.message ?? "cannot be applied"}`, 1);
  }
  const { api, settings } = await ctx.api();
  const n = all.length;
  const done = startProgress(ctx.io, `${dryRun ? "planning" : "applying"} ${n} monitor${n === 1 ? "" : "s"} on ${settings.apiUrl}`, n);
  // Issues name `monitors.<i>` inside the page: shifted to the entry's place in the file.
  const refused = (error: unknown, p: number) => {
    done("failed");
    if (!(error instanceof ApiError)) throw error;
    const shifted = error.issues.map((i) => ({
      ...i,
      path: i.path.replace(/^monitors\.(\d+)/, (_m, k) => `monitors.${Number(k) + p * size}`),
    }));
    return reportApiError(ctx.io, new ApiError(error.message, error.exitCode as 1 | 2, error.status, shifted), parsed);
  };
  const plans: ApplyOutput[] = [];
  // Several pages: all are planned before any is applied, so a refused entry anywhere writes nothing.
  if (pages.length > 1 && !dryRun)
    for (let p = 0; p < pages.length; p++) {
      try {
        await api.apply(bodyOf(p, true));
      } catch (error) {
        return refused(error, p);
      }
    }
  for (let p = 0; p < pages.length; p++) {
    try {
      plans.push(await api.apply(bodyOf(p, dryRun)));
    } catch (error) {
      if (p > 0 && error instanceof ApiError) {
        const applied = p * size;
        ctx.io.stderr(
          `vigil: ${applied} of ${n} monitors were applied before page ${p + 1} of ${pages.length} was refused; fix the file and run \`vigil apply ${file}\` again to apply the rest\n`,
        );
      }
      return refused(error, p);
    }
  }
  done("done");
  const plan: ApplyOutput = {
    create: plans.flatMap((x) => x.create),
    update: plans.flatMap((x) => x.update),
    delete: plans.flatMap((x) => x.delete),
    unchanged: plans.flatMap((x) => x.unchanged),
    applied: plans.every((x) => x.applied),
  };
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
    return 0;
  }
  const out = ctx.io.stdout;
  for (const key of plan.create) out(`+ ${key}\n`);
  for (const key of plan.update) out(`~ ${key}\n`);
  if (prune) for (const key of plan.delete) out(`- ${key}\n`);
  else if (plan.delete.length > 0) {
    out(
      `${plan.delete.length} monitor${plan.delete.length === 1 ? " is" : "s are"} not in ${file} and kept (use --prune to delete): ${plan.delete.join(", ")}\n`,
    );
  }
  const deleted = prune ? plan.delete.length : 0;
  const counts = dryRun
    ? `${plan.create.length} to create, ${plan.update.length} to update, ${deleted} to delete, ${plan.unchanged.length} unchanged`
    : `${plan.create.length} created, ${plan.update.length} updated, ${deleted} deleted, ${plan.unchanged.length} unchanged`;
  out(dryRun || !plan.applied ? `plan: ${counts} (dry run, nothing changed)\n` : `applied: ${counts}\n`);
  return 0;
}
