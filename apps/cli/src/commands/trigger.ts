import type { Ctx } from "../context";
import { CliError } from "../io";
import { MonitorId } from "./delete";

/** `vigil trigger <id>`: runs a monitor's check now and prints the result. */
export async function trigger(ctx: Ctx, rawId: string): Promise<number> {
  const id = MonitorId.safeParse(rawId);
  if (!id.success) throw new CliError(`"${rawId}" is not a monitor id (a positive whole number, see \`vigil list\`)`, 1);
  const { api } = await ctx.api();
  const run = await api.trigger(id.data);
  const { result } = run;
  const out = ctx.io.stdout;
  if (ctx.json) {
    out(`${JSON.stringify(run, null, 2)}\n`);
    return 0;
  }
  out(`ran on ${run.location.name} (${run.location.region})\n`);
  const code = result.statusCode !== undefined ? `, HTTP ${result.statusCode}` : "";
  out(`${result.status} in ${Math.round(result.latencyMs)}ms${code} (${result.attempts} attempt${result.attempts === 1 ? "" : "s"})\n`);
  if (result.errorMessage) out(`error: ${result.errorMessage}\n`);
  for (const a of result.assertions ?? []) out(`  ${a.ok ? "ok  " : "FAIL"} ${a.kind}: ${a.message}\n`);
  return 0;
}
