import { monitorTarget } from "@vigil/api-contract";
import type { Ctx } from "../context";

/** `vigil list`: the workspace's monitors as a table, or as JSON with --json; `--tag` keeps those with every tag named. */
export async function list(ctx: Ctx, flags: { tag?: string[] } = {}): Promise<number> {
  const { api } = await ctx.api();
  const wanted = flags.tag ?? [];
  const monitors = await api.listMonitors(wanted);
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify(monitors, null, 2)}\n`);
    return 0;
  }
  if (monitors.length === 0) {
    ctx.io.stdout(
      wanted.length > 0
        ? `no monitor is tagged ${wanted.join(" and ")}\n`
        : "no monitors yet; create some with `vigil create monitors.yaml`\n",
    );
    return 0;
  }
  const rows = [
    ["ID", "KEY", "NAME", "KIND", "EVERY", "REGIONS", "ACTIVE", "STATUS", "TAGS", "TARGET"],
    ...monitors.map((m) => [
      String(m.id),
      m.key ?? "-",
      m.name || "-",
      m.kind,
      m.frequency,
      m.regions.join(","),
      m.active ? "yes" : "no",
      m.health,
      m.tags.join(",") || "-",
      monitorTarget(m),
    ]),
  ];
  ctx.io.stdout(table(rows));
  return 0;
}

export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => `${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")}\n`).join("");
}
