import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { CliError } from "./io";

export const DEFAULT_API_URL = "http://127.0.0.1:3001";

export const ApiUrl = z
  .string()
  .url("must be a URL such as http://127.0.0.1:3001")
  .refine((u) => !URL.canParse(u) || /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL")
  .transform((u) => u.replace(/\/+$/, ""));

/** What `vigil login` writes. */
export const ConfigFile = z.object({ apiUrl: ApiUrl.optional(), token: z.string().min(1).optional() });
export type ConfigFile = z.infer<typeof ConfigFile>;

/** `$VIGIL_CONFIG`, else `$XDG_CONFIG_HOME/vigil/config.json`, else `~/.config/vigil/config.json`. */
export function configPath(env: Record<string, string | undefined>): string {
  if (env.VIGIL_CONFIG) return env.VIGIL_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "vigil", "config.json");
}

export async function readConfigFile(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, 1);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON; run \`vigil login\` again or fix the file`, 1);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`${path}: ${issue?.path.join(".") || "file"} ${issue?.message ?? "is not valid"}`, 1);
  }
  return parsed.data;
}

/** Writes the file readable by its owner only: it holds an API key. */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}

export type Settings = { apiUrl: string; token: string | undefined; configPath: string };

/** Server URL and token: flag, then environment, then the config file, then the default URL. */
export async function resolveSettings(
  flags: { apiUrl?: string; token?: string },
  env: Record<string, string | undefined>,
): Promise<Settings> {
  const path = configPath(env);
  const file = await readConfigFile(path);
  const rawUrl = flags.apiUrl ?? (env.VIGIL_API_URL || undefined) ?? file.apiUrl ?? DEFAULT_API_URL;
  const url = ApiUrl.safeParse(rawUrl);
  if (!url.success) throw new CliError(`--api-url ${url.error.issues[0]?.message ?? "is not valid"} (got "${rawUrl}")`, 1);
  const token = flags.token ?? (env.VIGIL_API_TOKEN || undefined) ?? file.token;
  return { apiUrl: url.data, token, configPath: path };
}
