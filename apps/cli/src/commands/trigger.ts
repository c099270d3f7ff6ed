import type { Ctx } from "../context";
import { CliError } from "../io";
import { MonitorId } from "./delete";

/** `vigil trigger <id>`: runs a monitor's check now and prints the result. */
export async function trigger(ctx: Ctx, rawId: string): Promise<number> {
  const id = MonitorId.safeParse(rawId);
  if (!id.success) throw new CliError(`"${rawId}" is not a monitor id (a positive whole number, see \`vigil list\`)`, 1);
  const { api } = await ctx.api();
  const result = await api.trigger(id.data);
  const out = ctx.io.stdout;
  if (ctx.json) {
    out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const code = result.statusCode !== undefined ? `, HTTP ${result.statusCode}` : "";
  out(`${result.status} in ${Math.round(result.latencyMs)}ms${code} (${result.attempts} attempt${result.attempts === 1 ? "" : "s"})\n`);
  if (result.errorMessage) out(`error: ${result.errorMessage}\n`);
  for (const a of result.assertions ?? []) out(`  ${a.ok ? "ok  " : "FAIL"} ${a.kind}: ${a.message}\n`);
  return 0;
}
