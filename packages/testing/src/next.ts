// One `next build` per source tree of a web app, shared by every test file and bench that runs it.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, Proc, untilHealthy } from "./index";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SKIP_IN_APP = new Set(["node_modules", ".next", ".turbo", "src", "next-env.d.ts", ".next-build.lock"]);

/** The app's own files and the packages' sources (tests aside): an edit to either means a new build. */
function sourceHash(app: string): string {
  const h = createHash("sha256");
  const walk = (dir: string, top: boolean) => {
    for (const name of readdirSync(dir).sort()) {
      if ((top && dir === app && SKIP_IN_APP.has(name)) || name === "node_modules" || name.endsWith(".test.ts")) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, top);
      else h.update(relative(ROOT, p)).update(readFileSync(p));
    }
  };
  walk(app, true);
  for (const pkg of readdirSync(join(ROOT, "packages")).sort()) {
    const src = join(ROOT, "packages", pkg, "src");
    if (existsSync(src)) walk(src, false);
  }
  return h.digest("hex");
}

/** Builds `apps/<name>` unless its current build is of these sources; a lock keeps two builds apart. */
export async function buildNextApp(name: string): Promise<void> {
  const app = join(ROOT, "apps", name);
  const lock = join(app, ".next-build.lock");
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the build timeout belongs to a run that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another ${name} build`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    const hash = sourceHash(app);
    const stamp = join(app, ".next/vigil-source-hash");
    if (existsSync(join(app, ".next/BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
    for (;;) {
      try {
        execFileSync(join(app, "node_modules/.bin/next"), ["build"], {
          cwd: app,
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
          timeout: 9 * 60_000,
        });
        break;
      } catch (err) {
        // `pnpm start` (turbo) may be building the same app right now: wait for it, then build ours.
        const out = `${(err as { stdout?: Buffer }).stdout ?? ""}${(err as { stderr?: Buffer }).stderr ?? ""}`;
        if (!out.includes("Another next build process is already running") || Date.now() > deadline)
          throw new Error(`next build of ${name} failed:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    writeFileSync(stamp, hash);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface NextApp {
  url: string;
  proc: Proc;
  stop(): Promise<void>;
}

/**
 * Spawns `next start` of `apps/<name>` with exactly `env` (plus PATH/HOME, and the VIGIL_SECRET_KEY the
 * test's database was given); does not wait.
 */
export function spawnNextApp(name: string, port: number, env: Record<string, string>): Proc {
  const app = join(ROOT, "apps", name);
  return new Proc(
    spawn(process.execPath, [join(app, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        ...(process.env.VIGIL_SECRET_KEY ? { VIGIL_SECRET_KEY: process.env.VIGIL_SECRET_KEY } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** `next start` on a free port (or `port`); resolves once /healthz answers. `env` may use the URL it will have. */
export async function startNextApp(name: string, env: (url: string) => Record<string, string>, port?: number): Promise<NextApp> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const proc = spawnNextApp(name, p, env(url));
  await untilHealthy(name, `${url}/healthz`, proc);
  return { url, proc, stop: () => proc.stop() };
}
