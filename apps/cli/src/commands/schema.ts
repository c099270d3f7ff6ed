import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { monitorsJsonSchema } from "@vigil/monitors-yaml";
import type { Ctx } from "../context";

/** `vigil schema [-o file]`: the JSON Schema editors use to check and complete a monitors file. */
export async function schema(ctx: Ctx, flags: { output?: string } = {}): Promise<number> {
  const text = `${JSON.stringify(monitorsJsonSchema(), null, 2)}\n`;
  if (!flags.output) {
    ctx.io.stdout(text);
    return 0;
  }
  await writeFile(resolve(ctx.io.cwd ?? process.cwd(), flags.output), text);
  ctx.io.stderr(`wrote the monitors file schema to ${flags.output}\n`);
  return 0;
}
