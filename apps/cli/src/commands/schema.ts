import { monitorsJsonSchema } from "@vigil/monitors-yaml";
import type { Ctx } from "../context";

/** `vigil schema`: the JSON Schema editors use to check and complete a monitors file. */
export async function schema(ctx: Ctx): Promise<number> {
  ctx.io.stdout(`${JSON.stringify(monitorsJsonSchema(), null, 2)}\n`);
  return 0;
}
