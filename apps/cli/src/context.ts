import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type ParsedMonitors, parseMonitorsYaml } from "@vigil/monitors-yaml";
import { type Api, type ApiError, createApi } from "./api";
import { resolveSettings, type Settings } from "./config";
import { CliError, type Io, printJsonError } from "./io";

export type GlobalFlags = { apiUrl?: string; token?: string; json?: boolean };

/** What every command gets: the io, the global flags, and lazily the settings and an API client. */
export type Ctx = {
  io: Io;
  flags: GlobalFlags;
  json: boolean;
  settings: () => Promise<Settings>;
  api: () => Promise<{ api: Api; settings: Settings }>;
};

export function makeCtx(io: Io, flags: GlobalFlags): Ctx {
  let settings: Promise<Settings> | undefined;
  const getSettings = () => {
    settings ??= resolveSettings(flags, io.env);
    return settings;
  };
  return {
    io,
    flags,
    json: flags.json === true,
    settings: getSettings,
    async api() {
      const s = await getSettings();
      if (!s.token) throw new CliError("no API token: pass --token, set VIGIL_API_TOKEN, or run `vigil login`", 1);
      return { api: createApi({ apiUrl: s.apiUrl, token: s.token }), settings: s };
    },
  };
}

export async function readMonitorsFile(io: Io, file: string): Promise<ReturnType<typeof parseMonitorsYaml>> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd ?? process.cwd(), file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new CliError(`cannot read ${file}: ${reason}`, 1);
  }
  // `${VAR}` placeholders (secrets left out of an exported file) are filled from the environment.
  return parseMonitorsYaml(text, file, { env: process.env });
}

/** Reads and validates a monitors file; prints every problem and stops with exit 1 when there are any. */
export async function loadMonitorsFile(io: Io, file: string, consequence: string): Promise<ParsedMonitors> {
  const parsed = await readMonitorsFile(io, file);
  if (parsed.ok) return parsed;
  const n = parsed.errors.length;
  const message = `${file}: ${n} problem${n === 1 ? "" : "s"}; ${consequence}`;
  if (io.json) {
    const issues = parsed.errors.map(({ file: f, line, column, path, rule }) => ({ file: f, line, column, path, message: rule }));
    printJsonError(io, { message, exitCode: 1, issues });
    throw new CliError(message, 1, true);
  }
  for (const e of parsed.errors) io.stderr(`${e.message}\n`);
  throw new CliError(message, 1);
}

const MONITOR_PATH = /^monitors\.(\d+)(?:\.(.+))?$/;

/**
 * Prints a failed call. Issues about `monitors.<index>.<field>` are pointed at the file's lines, so a
 * rule only the server knows (limits, unknown channels) reads like a validation error.
 */
export function reportApiError(io: Io, error: ApiError, parsed?: ParsedMonitors): number {
  if (io.json) {
    const issues = error.issues.map((issue) => {
      const m = MONITOR_PATH.exec(issue.path);
      if (!parsed || !m) return issue;
      const segments = (m[2] ?? "")
        .split(".")
        .filter(Boolean)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const at = parsed.errorAt(Number(m[1]), segments, issue.message);
      return { ...issue, file: at.file, line: at.line, column: at.column };
    });
    printJsonError(io, { message: error.message, exitCode: error.exitCode, status: error.status, issues });
    return error.exitCode;
  }
  io.stderr(`vigil: ${error.message}\n`);
  for (const issue of error.issues) {
    const m = MONITOR_PATH.exec(issue.path);
    if (parsed && m) {
      const path = (m[2] ?? "").split(".").filter(Boolean);
      const segments = path.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      io.stderr(`${parsed.errorAt(Number(m[1]), segments, issue.message).message}\n`);
    } else {
      io.stderr(`  ${issue.path || "(body)"}: ${issue.message}\n`);
    }
  }
  return error.exitCode;
}
