import { createApi } from "../api";
import { writeConfigFile } from "../config";
import type { Ctx } from "../context";
import { CliError } from "../io";

/** `vigil login`: checks a token against the server, then saves server and token for later commands. */
export async function login(ctx: Ctx): Promise<number> {
  const settings = await ctx.settings();
  const { io } = ctx;
  let token = ctx.flags.token ?? (io.env.VIGIL_API_TOKEN || undefined);
  if (!token) {
    if (!io.prompt) throw new CliError("no token given: pass --token (create an API key in the dashboard under settings)", 1);
    token = (await io.prompt(`API token for ${settings.apiUrl}: `)).trim();
    if (!token) throw new CliError("no token given", 1);
  }
  const me = await createApi({ apiUrl: settings.apiUrl, token }).whoami();
  await writeConfigFile(settings.configPath, { apiUrl: settings.apiUrl, token });
  io.stdout(
    `logged in to ${settings.apiUrl} as workspace ${me.workspace.name ?? me.workspace.id} (key ${me.apiKey.name}); saved to ${settings.configPath}\n`,
  );
  return 0;
}
