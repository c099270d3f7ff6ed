import { MonitorBatchInput } from "@vigil/api-contract";
import { ApiError } from "../api";
import { type Ctx, loadMonitorsFile, reportApiError } from "../context";
import { CliError } from "../io";
import { startProgress } from "../progress";

/** `vigil create <file>`: uploads every monitor of the file in one all-or-nothing batch. */
export async function create(ctx: Ctx, file: string): Promise<number> {
  const parsed = await loadMonitorsFile(ctx.io, file, "nothing was uploaded");
  const body = MonitorBatchInput.safeParse({ monitors: parsed.monitors });
  if (!body.success) throw new CliError(`${file}: ${body.error.issues[0]?.message ?? "cannot be uploaded"}`, 1);
  const { api, settings } = await ctx.api();
  const n = parsed.monitors.length;
  const done = startProgress(ctx.io, `uploading ${n} monitor${n === 1 ? "" : "s"} to ${settings.apiUrl}`, n);
  let out: Awaited<ReturnType<typeof api.createBatch>>;
  try {
    out = await api.createBatch({ monitors: parsed.monitors });
    done("done");
  } catch (error) {
    done("failed");
    if (error instanceof ApiError) return reportApiError(ctx.io, error, parsed);
    throw error;
  }
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...out.monitors.map((m) => (m.key ?? m.name).length));
  for (const m of out.monitors) ctx.io.stdout(`+ ${(m.key ?? m.name).padEnd(width)}  id ${m.id}\n`);
  ctx.io.stdout(`created ${out.monitors.length} monitor${out.monitors.length === 1 ? "" : "s"}\n`);
  return 0;
}
