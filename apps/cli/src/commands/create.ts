import { MonitorBatchInput, type MonitorInput } from "@vigil/api-contract";
import { ApiError } from "../api";
import { type Ctx, loadMonitorsFile, reportApiError } from "../context";
import { CliError } from "../io";
import { startProgress } from "../progress";

/** Monitors per request: well inside the server's 1,000, so a big file is a few short transactions. */
export const CREATE_PAGE = 500;

/**
 * `vigil create <file>`: uploads every monitor of the file. A file of up to 500 monitors is one
 * all-or-nothing batch; a bigger one goes in pages of 500, and if a page is refused the ones before
 * it stay created and the message says so (`vigil apply` then converges by entry key).
 */
export async function create(ctx: Ctx, file: string): Promise<number> {
  const parsed = await loadMonitorsFile(ctx.io, file, "nothing was uploaded");
  const pages: MonitorInput[][] = [];
  for (let i = 0; i < parsed.monitors.length; i += CREATE_PAGE) pages.push(parsed.monitors.slice(i, i + CREATE_PAGE));
  for (const page of pages) {
    const body = MonitorBatchInput.safeParse({ monitors: page });
    if (!body.success) throw new CliError(`${file}: ${body.error.issues[0]?.message ?? "cannot be uploaded"}`, 1);
  }
  const { api, settings } = await ctx.api();
  const n = parsed.monitors.length;
  const done = startProgress(ctx.io, `uploading ${n} monitor${n === 1 ? "" : "s"} to ${settings.apiUrl}`, n);
  const created: Awaited<ReturnType<typeof api.createBatch>>["monitors"] = [];
  for (const [p, page] of pages.entries()) {
    try {
      created.push(...(await api.createBatch({ monitors: page })).monitors);
    } catch (error) {
      done("failed");
      if (!(error instanceof ApiError)) throw error;
      if (p > 0) {
        ctx.io.stderr(
          `vigil: ${created.length} of ${n} monitors were created before page ${p + 1} of ${pages.length} was refused; fix the file and run \`vigil apply ${file}\` to create the rest\n`,
        );
      }
      // Issues name `monitors.<i>` inside the page: shift them to the entry's place in the file.
      const offset = p * CREATE_PAGE;
      const shifted = error.issues.map((i) => ({
        ...i,
        path: i.path.replace(/^monitors\.(\d+)/, (_m, k) => `monitors.${Number(k) + offset}`),
      }));
      return reportApiError(ctx.io, new ApiError(error.message, error.exitCode as 1 | 2, error.status, shifted), parsed);
    }
  }
  done("done");
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify({ monitors: created }, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...created.map((m) => (m.key ?? m.name).length));
  for (const m of created) {
    const warn =
      m.health === "no-probe" ? `  (no private location serves ${m.regions.join(", ")}: it will not be checked until one does)` : "";
    ctx.io.stdout(`+ ${(m.key ?? m.name).padEnd(width)}  id ${m.id}${warn}\n`);
  }
  ctx.io.stdout(`created ${created.length} monitor${created.length === 1 ? "" : "s"}\n`);
  return 0;
}
