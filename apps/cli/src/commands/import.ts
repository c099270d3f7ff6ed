import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { serializeMonitorsYaml } from "@vigil/monitors-yaml";
import type { Ctx } from "../context";

/** `vigil import [-o file]`: writes the workspace's monitors as a monitors file. */
export async function importMonitors(ctx: Ctx, flags: { output?: string }): Promise<number> {
  const { api } = await ctx.api();
  const monitors = await api.listMonitors();
  const text = serializeMonitorsYaml(monitors);
  const { io } = ctx;
  if (flags.output) {
    await writeFile(resolve(io.cwd ?? process.cwd(), flags.output), text);
    io.stderr(`wrote ${monitors.length} monitor${monitors.length === 1 ? "" : "s"} to ${flags.output}\n`);
  } else {
    io.stdout(text);
  }
  const unkeyed = monitors.filter((m) => m.key === null).length;
  if (unkeyed > 0) {
    io.stderr(
      `note: ${unkeyed} monitor${unkeyed === 1 ? " has" : "s have"} no key on the server; the file names them from their names or ids, and \`vigil apply\` will create new monitors for those entries\n`,
    );
  }
  if (monitors.some((m) => m.openTelemetry && Object.values(m.openTelemetry.headers).includes("***"))) {
    io.stderr("note: OTLP header values are redacted by the server (***); put the real values in before `vigil apply`\n");
  }
  return 0;
}
