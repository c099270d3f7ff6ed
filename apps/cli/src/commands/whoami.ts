import type { Ctx } from "../context";

/** `vigil whoami`: which server, workspace and API key the CLI is using. */
export async function whoami(ctx: Ctx): Promise<number> {
  const { api, settings } = await ctx.api();
  const me = await api.whoami();
  if (ctx.json) {
    ctx.io.stdout(`${JSON.stringify({ apiUrl: settings.apiUrl, ...me }, null, 2)}\n`);
    return 0;
  }
  const ws = me.workspace;
  ctx.io.stdout(
    `server     ${settings.apiUrl}\nworkspace  ${ws.name ?? "(unnamed)"} (id ${ws.id}${ws.plan ? `, plan ${ws.plan}` : ""})\napi key    ${me.apiKey.name} (id ${me.apiKey.id})\n${me.apiKey.scopes ? `scopes     ${me.apiKey.scopes.join(", ")}\n` : ""}`,
  );
  return 0;
}
