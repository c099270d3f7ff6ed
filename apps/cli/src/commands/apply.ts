import { ApplyInput } from "@vigil/api-contract";
import { ApiError } from "../api";
import { type Ctx, loadMonitorsFile, reportApiError } from "../context";
import { CliError } from "../io";
import { startProgress } from "../progress";

export type ApplyFlags = { prune?: boolean; dryRun?: boolean };

/** `vigil apply <file>`: makes the workspace's keyed monitors match the file; deletes only with --prune. */
export async function apply(ctx: Ctx, file: string, flags: ApplyFlags): Promise<number> {
  const parsed = await loadMonitorsFile(ctx.io, file, "nothing was applied");
  const input = { monitors: parsed.monitors, prune: flags.prune === true, dryRun: flags.dryRun === true };
  const body = ApplyInput.safeParse(input);
  if (!body.success) throw new CliError(`${file}: ${body.error.issues[0]?.message ?? "cannot be applied"}`, 1);
  const { api, settings } = await ctx.api();
  const n = parsed.monitors.length;
  const done = startProgress(
    ctx.io,
    `${input.dryRun ? "planning" : "applying"} ${n} monitor${n === 1 ? "" : "s"} on ${settings.apiUrl}`,
    n,
  );
  let plan: Awaited<ReturnType<typeof api.apply>>;
  try {
    plan = await api.apply(input);
    done("done");
  } catch (error) {
    done("failed");
    if (error instanceof ApiError) return reportApiError(ctx.io, error, parsed);
    throw error;
  }
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
    return 0;
  }
  const out = ctx.io.stdout;
  for (const key of plan.create) out(`+ ${key}\n`);
  for (const key of plan.update) out(`~ ${key}\n`);
  if (input.prune) for (const key of plan.delete) out(`- ${key}\n`);
  else if (plan.delete.length > 0) {
    out(
      `${plan.delete.length} monitor${plan.delete.length === 1 ? " is" : "s are"} not in ${file} and kept (use --prune to delete): ${plan.delete.join(", ")}\n`,
    );
  }
  const deleted = input.prune ? plan.delete.length : 0;
  const counts = input.dryRun
    ? `${plan.create.length} to create, ${plan.update.length} to update, ${deleted} to delete, ${plan.unchanged.length} unchanged`
    : `${plan.create.length} created, ${plan.update.length} updated, ${deleted} deleted, ${plan.unchanged.length} unchanged`;
  out(input.dryRun || !plan.applied ? `plan: ${counts} (dry run, nothing changed)\n` : `applied: ${counts}\n`);
  return 0;
}
