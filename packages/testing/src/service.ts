// Our services as real processes in tests, started from the bundles production runs (apps/<app>/dist, built
// once per test run by the stack project's globalSetup, test/setup/bundles.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "./index";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
/** The output kept for assertions and failure messages. */
const KEEP_CHARS = 2_000_000;

/** `apps/<app>/dist/<name>.js`, as the app's `build` script writes it. */
export function serviceBundle(app: string, name = "main"): string {
  const file = join(ROOT, "apps", app, "dist", `${name}.js`);
  if (!existsSync(file))
    throw new Error(`${file} is not built: the stack project's globalSetup builds it (run the file with \`pnpm test:stack\`)`);
  return file;
}

export interface ServiceOptions {
  /** Names the service in failure messages. */
  name: string;
  /** A bundle (or any script node runs), absolute or relative to the repository root; or, with `command`, its first argument. */
  entry?: string;
  /** Another program than node (redis-server): run with `args` alone. */
  command?: string;
  args?: string[];
  /** Added to the test process's environment. */
  env?: Record<string, string>;
  /** False: `env` alone (plus PATH and HOME), for an app that must not see the test's variables. */
  inheritEnv?: boolean;
  /** Node's own flags, before the entry (`--import tsx` for a test that must run source). */
  nodeArgs?: string[];
  cwd?: string;
  /** What answers 2xx once the service is ready (or a check that says so); by default /healthz on env.PORT, none without a PORT. */
  health?: string | (() => Promise<boolean>) | null;
  /** How long `start` waits for health: generous, a service beside other test files can take a while. */
  healthTimeoutMs?: number;
}

/**
 * A service process the test may stop and start again with the same options. One node process (no wrapper),
 * so SIGKILL really kills the service and leaves no child behind. Its output is kept as lines.
 */
export class Service {
  child!: ChildProcess;
  /** Every complete line the process wrote (stdout and stderr), across restarts. */
  readonly lines: string[] = [];
  private text = "";
  private partial = "";
  exit!: Promise<number | null>;

  constructor(readonly options: ServiceOptions) {}

  get name(): string {
    return this.options.name;
  }
  get env(): Record<string, string> {
    return this.options.env ?? {};
  }
  /** The last output, as text. */
  get log(): string {
    return this.text;
  }
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }
  /** Parsed JSON log lines (others skipped). */
  logs(): Record<string, unknown>[] {
    return this.lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  private take(chunk: Buffer) {
    const s = chunk.toString("utf8");
    this.text = (this.text + s).slice(-KEEP_CHARS);
    const parts = (this.partial + s).split("\n");
    this.partial = parts.pop() ?? "";
    this.lines.push(...parts.filter(Boolean));
  }

  /** Spawns the process; with `waitHealthy`, resolves once it is ready (and fails with its log if it exits first). */
  async start(waitHealthy = true): Promise<this> {
    const o = this.options;
    const entry = o.entry && (isAbsolute(o.entry) ? o.entry : join(ROOT, o.entry));
    const [file, args] = o.command
      ? [o.command, [...(entry ? [entry] : []), ...(o.args ?? [])]]
      : [process.execPath, [...(o.nodeArgs ?? []), entry ?? "", ...(o.args ?? [])]];
    this.child = spawn(file, args, {
      cwd: o.cwd ?? ROOT,
      env:
        o.inheritEnv === false
          ? ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...o.env } as unknown as NodeJS.ProcessEnv)
          : { ...process.env, ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const child = this.child;
    child.stdout!.on("data", (d: Buffer) => this.take(d));
    child.stderr!.on("data", (d: Buffer) => this.take(d));
    this.exit = new Promise((r) => child.once("exit", (code) => r(code)));
    if (waitHealthy) await this.healthy();
    return this;
  }

  /** What says the process is ready, if anything. */
  get health(): string | (() => Promise<boolean>) | null {
    if (this.options.health !== undefined) return this.options.health;
    return this.env.PORT ? `http://127.0.0.1:${this.env.PORT}/healthz` : null;
  }

  async healthy(timeoutMs = this.options.healthTimeoutMs ?? 180_000): Promise<void> {
    const health = this.health;
    if (!health) return;
    await until(
      `${this.name}${typeof health === "string" ? ` ${health}` : ""}`,
      async () => {
        if (!this.running)
          throw new Error(`${this.name} exited (${this.child?.exitCode ?? this.child?.signalCode}):\n${this.log.slice(-3000)}`);
        if (typeof health === "function") return health();
        return fetch(health, { signal: AbortSignal.timeout(2000) }).then(
          async (r) => {
            await r.body?.cancel();
            return r.ok;
          },
          () => false,
        );
      },
      timeoutMs,
      100,
    );
  }

  /** Sends `signal` and waits for the exit; a process already gone is left alone. */
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    await this.exit;
  }

  /** The same as `stop`. */
  kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    return this.stop(signal);
  }

  /** Stops the process (SIGKILL unless told) and starts it again with the same options. */
  async restart(signal: NodeJS.Signals = "SIGKILL", waitHealthy = true): Promise<this> {
    await this.stop(signal);
    return this.start(waitHealthy);
  }
}

/** Starts a service and, unless `waitHealthy` is false, waits until it is ready. */
export function spawnService(options: ServiceOptions, waitHealthy = true): Promise<Service> {
  return new Service(options).start(waitHealthy);
}

/** Runs a bundle (a CLI) to its end: exit code and output. Asynchronous, so servers in the test's process keep answering. */
export function runBundle(
  entry: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [isAbsolute(entry) ? entry : join(ROOT, entry), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
    child.on("close", (code) => resolve({ code, out, err }));
  });
}
