import { z } from "zod";
import type { Ctx } from "../context";
import { CliError } from "../io";

export const MonitorId = z.coerce.number().int().positive();

/** `vigil delete <id...>`: deletes monitors by id, stopping at the first failure. */
export async function deleteMonitors(ctx: Ctx, ids: string[]): Promise<number> {
  const parsed = ids.map((raw) => {
    const id = MonitorId.safeParse(raw);
    if (!id.success) throw new CliError(`"${raw}" is not a monitor id (a positive whole number, see \`vigil list\`)`, 1);
    return id.data;
  });
  const { api } = await ctx.api();
  for (const id of parsed) {
    await api.deleteMonitor(id);
    ctx.io.stdout(`deleted monitor ${id}\n`);
  }
  return 0;
}
