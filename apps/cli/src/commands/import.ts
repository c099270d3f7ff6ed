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
  const secrets = [...text.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]);
  if (secrets.length > 0) {
    io.stderr(
      `note: secrets (header values, passwords and tokens in URLs) are not exported; set ${[...new Set(secrets)].join(", ")} in the environment before \`vigil apply\` (the file asks for them as \${…})\n`,
    );
  }
  return 0;
}
