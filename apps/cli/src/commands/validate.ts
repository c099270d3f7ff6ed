import { type Ctx, readMonitorsFile } from "../context";

/** `vigil validate <file>`: checks a monitors file offline, printing every problem with its line. */
export async function validate(ctx: Ctx, file: string): Promise<number> {
  const parsed = await readMonitorsFile(ctx.io, file);
  const { io } = ctx;
  if (ctx.json) {
    io.stdout(`${JSON.stringify(parsed.ok ? { ok: true, monitors: parsed.monitors } : { ok: false, errors: parsed.errors }, null, 2)}\n`);
    return parsed.ok ? 0 : 1;
  }
  if (parsed.ok) {
    const n = parsed.monitors.length;
    io.stdout(`${file}: ${n} monitor${n === 1 ? "" : "s"}, no problems\n`);
    return 0;
  }
  for (const e of parsed.errors) io.stderr(`${e.message}\n`);
  const n = parsed.errors.length;
  io.stderr(`${file}: ${n} problem${n === 1 ? "" : "s"}\n`);
  return 1;
}
