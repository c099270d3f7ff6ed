import type { Ctx } from "../context";
import { CliError } from "../io";
import { MonitorId } from "./delete";

/** `vigil ack <monitor-id>` / `vigil ack --incident <id>`: acknowledges the open alert; reminders and escalation stop. */
export async function ack(ctx: Ctx, rawId: string, flags: { incident?: boolean }): Promise<number> {
  const what = flags.incident ? "incident" : "monitor";
  const id = MonitorId.safeParse(rawId);
  if (!id.success)
    throw new CliError(`"${rawId}" is not ${what === "incident" ? "an incident" : "a monitor"} id (a positive whole number)`, 1);
  const { api } = await ctx.api();
  const out = await api.ack(flags.incident ? "incidents" : "monitors", id.data);
  if (ctx.json) ctx.io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  else ctx.io.stdout(`acknowledged ${what} ${id.data} (by ${out.actor} at ${new Date(out.createdAt).toISOString()})\n`);
  return 0;
}
